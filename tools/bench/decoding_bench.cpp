#include "tools/bench/decoding_bench.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <limits>
#include <memory>

#include <unistd.h>

#include "falcon/core/rng.h"
#include "falcon/decoding/builtin_grammars.h"
#include "falcon/decoding/grammar_state.h"
#include "falcon/problems/registry.h"
#include "falcon/solvers/solver.h"
#include "falcon/text/tokenizer.h"
#include "falcon/tokenizer_training/corpus.h"
#include "falcon/tokenizer_training/train.h"

namespace falcon::bench {
namespace {

using decoding::GrammarState;
using decoding::TokenMask;
using decoding::Vocabulary;
using Clock = std::chrono::steady_clock;

double ns_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::nano>(b - a).count();
}

nlohmann::json summary(std::vector<double> ns) {
  std::sort(ns.begin(), ns.end());
  auto at = [&](double q) { return ns.empty() ? 0.0 : ns[std::min(ns.size() - 1, static_cast<std::size_t>(q * ns.size()))]; };
  double sum = 0;
  for (double x : ns) sum += x;
  return {{"steps", ns.size()}, {"p50_ns", at(0.50)}, {"p99_ns", at(0.99)}, {"max_ns", ns.empty() ? 0.0 : ns.back()},
          {"mean_ns", ns.empty() ? 0.0 : sum / ns.size()}};
}

// The trained tokenizer: loaded from `path`, or a BPE (vocabulary 2000, the project default)
// trained on the default generated corpus.
std::unique_ptr<text::Tokenizer> trained_tokenizer(const std::string& path) {
  if (!path.empty()) return std::make_unique<text::Tokenizer>(text::Tokenizer::load(path));
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("falcon_bench_decoding_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  text::train_tokenizer(text::corpus_texts(text::generate_corpus({})), (dir / "tok").string(), {});
  auto tokenizer = std::make_unique<text::Tokenizer>(text::Tokenizer::load((dir / "tok.model").string()));
  fs::remove_all(dir);
  return tokenizer;
}

// Solution texts as the model would write them: heuristic solutions of generated instances.
std::vector<std::string> solution_texts(const problems::Problem& problem, int n, int count, std::uint64_t seed) {
  const solvers::SolverEntry* heuristic = nullptr;
  for (const auto* entry : solvers::solvers_for(problem.name()))
    if (entry->method != "reference") {
      heuristic = entry;
      break;
    }
  std::vector<std::string> texts;
  for (int k = 0; k < count; ++k) {
    problems::GenerateOptions gen;
    gen.n = n;
    const auto instance = problem.generate(gen, seed + static_cast<std::uint64_t>(k));
    texts.push_back(problem.format(*instance, heuristic->solve(*instance, {})));
  }
  return texts;
}

// Times what a sampler pays per decoding step while it writes `sequences` (token ids, each
// a solution followed by EOS) again and again: mask() then accept(). Also times applying the
// mask to a dense float logits row and, for the grammar mask, reading its allowed-token list.
struct StepTimes {
  std::vector<double> mask_and_accept;
  std::vector<double> apply_to_logits;
  std::vector<double> sparse_list;
  int refused = 0;  // tokens the mask did not allow (restarts the sequence)
};

StepTimes time_steps(const GrammarState& initial, const std::vector<std::vector<int>>& sequences, int steps,
                     bool dense_too) {
  StepTimes t;
  t.mask_and_accept.reserve(steps);
  std::vector<float> logits(static_cast<std::size_t>(initial.automaton().vocab_size()), 0.0f);
  std::uint64_t sink = 0;
  GrammarState state = initial;
  std::size_t seq = 0, pos = 0;
  for (int s = 0; s < steps; ++s) {
    if (pos == sequences[seq].size()) {
      seq = (seq + 1) % sequences.size();
      pos = 0;
      state = initial;
    }
    const int token = sequences[seq][pos++];
    const auto a = Clock::now();
    const TokenMask mask = state.mask();
    sink += mask.words[token >> 6];
    const bool ok = state.accept(token);
    const auto b = Clock::now();
    t.mask_and_accept.push_back(ns_between(a, b));
    if (!ok) {
      ++t.refused;
      pos = sequences[seq].size();
      continue;
    }
    if (dense_too && !state.is_finished()) {
      const TokenMask m = state.mask();
      std::fill(logits.begin(), logits.end(), 0.0f);
      const auto c = Clock::now();
      decoding::apply_mask(m, logits.data());
      const auto d = Clock::now();
      float total = 0;
      const auto e = Clock::now();
      for (int id : state.automaton().allowed(state.automaton_state())) total += logits[id];
      const auto f = Clock::now();
      sink += logits[s % logits.size()] < 0 || total > 1;
      t.apply_to_logits.push_back(ns_between(c, d));
      t.sparse_list.push_back(ns_between(e, f));
    }
  }
  if (sink == 42) std::printf(" ");  // keeps the timed work observable
  return t;
}

std::vector<std::string> names_or_all(const std::vector<std::string>& given) {
  if (!given.empty()) return given;
  std::vector<std::string> names;
  for (const auto name : problems::problem_names()) names.emplace_back(name);
  return names;
}

// Encoding speed on what the trainer encodes: every problem's prompt and heuristic solution
// (n = 20), again and again for at least a second.
nlohmann::json encode_speed(const text::Tokenizer& tokenizer, const std::vector<std::string>& names, std::uint64_t seed) {
  std::vector<std::string> texts;
  for (const auto& name : names) {
    const problems::Problem& problem = problems::problem_by_name(name);
    problems::GenerateOptions gen;
    gen.n = 20;
    for (int k = 0; k < 5; ++k) texts.push_back(problem.prompt(*problem.generate(gen, seed + static_cast<std::uint64_t>(k))) + "\n");
    for (auto& text : solution_texts(problem, 20, 5, seed)) texts.push_back(std::move(text));
  }
  std::size_t bytes = 0, tokens = 0;
  const auto start = Clock::now();
  double seconds = 0;
  while (seconds < 1.0) {
    for (const auto& text : texts) {
      bytes += text.size();
      tokens += tokenizer.encode(text).size();
    }
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return {{"texts", texts.size()}, {"mb_per_s", static_cast<double>(bytes) / seconds / 1e6},
          {"tokens_per_s", static_cast<double>(tokens) / seconds}, {"bytes_per_token", static_cast<double>(bytes) / tokens}};
}

double clock_overhead_ns() {
  std::vector<double> ns;
  for (int i = 0; i < 10000; ++i) {
    const auto a = Clock::now();
    const auto b = Clock::now();
    ns.push_back(ns_between(a, b));
  }
  std::sort(ns.begin(), ns.end());
  return ns[ns.size() / 2];
}

}  // namespace

nlohmann::json run_decoding_benchmarks(const DecodingBenchOptions& options) {
  nlohmann::json out;
  out["clock_overhead_p50_ns"] = clock_overhead_ns();
  const auto t0 = Clock::now();
  const std::unique_ptr<text::Tokenizer> tokenizer = trained_tokenizer(options.tokenizer);
  out["tokenizer_train_or_load_s"] = std::chrono::duration<double>(Clock::now() - t0).count();
  out["encode"] = encode_speed(*tokenizer, names_or_all(options.problems), options.seed);
  const std::vector<std::pair<std::string, Vocabulary>> vocabularies = {
      {"trained", Vocabulary::from_tokenizer(*tokenizer)},
      {"synthetic", Vocabulary::synthetic(options.synthetic_vocab, options.seed)}};
  for (const auto& [name, v] : vocabularies) out["vocabularies"][name] = {{"size", v.size()}};
  const std::vector<std::string> names = names_or_all(options.problems);

  // Per-step mask time along real solution texts (the automata are compiled before timing).
  for (const auto& problem_name : names) {
    const problems::Problem& problem = problems::problem_by_name(problem_name);
    const std::vector<std::string> texts = solution_texts(problem, options.mask_n, 5, options.seed);
    problems::GenerateOptions gen;
    gen.n = options.mask_n;
    const auto instance = problem.generate(gen, options.seed);  // the first text's instance
    for (const auto& [vname, vocabulary] : vocabularies) {
      std::vector<std::vector<int>> sequences;
      for (const auto& text : texts) {
        sequences.push_back(vname == "trained" ? tokenizer->encode(text) : decoding::longest_match_tokens(vocabulary, text));
        sequences.back().push_back(vocabulary.eos_id());
      }
      const GrammarState plain = decoding::make_grammar_state(problem, instance, vocabulary);
      const StepTimes g = time_steps(plain, sequences, options.mask_steps, true);
      // The semantic mask is per instance: only the first text is feasible for `instance`.
      decoding::GrammarOptions semantic_options;
      semantic_options.semantic = true;
      const GrammarState semantic = decoding::make_grammar_state(problem, instance, vocabulary, semantic_options);
      const StepTimes s = time_steps(semantic, {sequences[0]}, options.semantic_steps, false);
      std::size_t tokens = 0;
      for (const auto& seq : sequences) tokens += seq.size();
      out["mask_per_step"].push_back({{"vocabulary", vocabulary.size()},
                                      {"vocabulary_kind", vname},
                                      {"problem", problem_name},
                                      {"n", options.mask_n},
                                      {"tokens_per_solution", static_cast<double>(tokens) / sequences.size()},
                                      {"grammar_mask_and_accept", summary(g.mask_and_accept)},
                                      {"grammar_refused", g.refused},
                                      {"apply_mask_to_float_logits", summary(g.apply_to_logits)},
                                      {"read_allowed_list_and_gather", summary(g.sparse_list)},
                                      {"semantic_mask_and_accept", summary(s.mask_and_accept)},
                                      {"semantic_refused", s.refused}});
    }
  }

  // Compile time per (grammar, n): byte DFA, then the token automaton per vocabulary.
  for (const auto& problem_name : names) {
    const decoding::Grammar& grammar = decoding::builtin_grammar(problem_name);
    for (int n : options.compile_sizes) {
      const decoding::IndexRange range{problem_name == "cvrp" ? 1 : 0, n - 1};
      double dfa_ms = 1e300;
      int states = 0;
      std::unique_ptr<decoding::ByteDfa> dfa;
      for (int r = 0; r < options.compile_repeats; ++r) {
        const auto a = Clock::now();
        dfa = std::make_unique<decoding::ByteDfa>(decoding::ByteDfa::compile(grammar, range));
        dfa_ms = std::min(dfa_ms, ns_between(a, Clock::now()) / 1e6);
        states = dfa->num_states();
      }
      nlohmann::json row = {{"problem", problem_name}, {"n", n}, {"dfa_states", states}, {"byte_dfa_ms", dfa_ms}};
      for (const auto& [vname, vocabulary] : vocabularies) {
        double token_ms = 1e300;
        std::size_t bytes = 0;
        for (int r = 0; r < options.compile_repeats; ++r) {
          const auto a = Clock::now();
          const auto automaton = decoding::TokenAutomaton::build(*dfa, vocabulary);
          token_ms = std::min(token_ms, ns_between(a, Clock::now()) / 1e6);
          bytes = automaton->memory_bytes();
        }
        const std::string key = vname + "_" + std::to_string(vocabulary.size());
        row["token_automaton_ms"][key] = token_ms;
        row["token_automaton_mb"][key] = static_cast<double>(bytes) / (1 << 20);
      }
      out["compile"].push_back(row);
    }
  }
  return out;
}

}  // namespace falcon::bench
