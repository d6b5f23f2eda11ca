#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>

#include <unistd.h>

#include "falcon/problems/registry.h"
#include "falcon/text/tokenizer.h"
#include "falcon/tokenizer_training/corpus.h"
#include "falcon/tokenizer_training/train.h"

namespace falcon::decoding::testing {

const Vocabulary& trained_vocabulary() {
  static std::once_flag once;
  static std::unique_ptr<Vocabulary> vocabulary;
  std::call_once(once, [] {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("falcon_decoding_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::vector<std::string> texts;
    for (int n : {20, 100}) {
      text::CorpusOptions corpus;
      corpus.instances_per_problem = 3;
      corpus.n = n;
      corpus.seed = static_cast<std::uint64_t>(n);
      for (auto& t : text::corpus_texts(text::generate_corpus(corpus))) texts.push_back(std::move(t));
    }
    text::TrainOptions options;  // the project defaults: BPE, vocabulary 2000, plain numbers
    text::train_tokenizer(texts, (dir / "tok").string(), options);
    vocabulary = std::make_unique<Vocabulary>(Vocabulary::from_tokenizer(text::Tokenizer::load((dir / "tok.model").string())));
    fs::remove_all(dir);
  });
  return *vocabulary;
}

int sample_uniform(const TokenMask& mask, Rng& rng) {
  const int count = mask.count();
  if (count == 0) {
    ADD_FAILURE() << "empty mask";
    return -1;
  }
  int k = rng.uniform_int(0, count - 1);
  for (int w = 0; w < mask.num_words; ++w) {
    std::uint64_t word = mask.words[w];
    const int c = __builtin_popcountll(word);
    if (k >= c) {
      k -= c;
      continue;
    }
    for (; k > 0; --k) word &= word - 1;  // drop the lowest set bits
    return w * 64 + __builtin_ctzll(word);
  }
  return -1;
}

std::string sample_text(GrammarState state, Rng& rng, int max_tokens) {
  const Vocabulary& vocabulary = state.automaton().vocabulary();
  std::string text;
  for (int step = 0; step < max_tokens && !state.is_finished(); ++step) {
    const int token = sample_uniform(state.mask(), rng);
    if (token < 0) return text;
    if (!state.accept(token)) {
      ADD_FAILURE() << "accept refused an allowed token " << token << " after '" << text << "'";
      return text;
    }
    text += vocabulary.bytes(token);
  }
  EXPECT_TRUE(state.is_finished()) << "no EOS after " << max_tokens << " tokens: '" << text.substr(0, 200) << "...'";
  return text;
}

namespace {

// Each step returns kOk (consumed), kEnd (the text ended where the grammar can go on) or kFail.
class PrefixRecogniser {
 public:
  enum R { kOk, kEnd, kFail };
  PrefixRecogniser(const problems::GrammarSpec& g, std::string_view t) : g_(g), t_(t) {}

  bool viable() {
    R r = lit(g_.keyword);
    if (r == kOk) r = lit(": [");
    if (r == kOk) r = g_.nested ? nested() : list();
    if (r == kOk) r = lit("], Objective: ");
    if (r == kOk) r = digits();
    if (r == kOk) r = lit(".");
    if (r == kOk) r = digits();
    if (r == kOk) return p_ == t_.size();
    return r == kEnd;
  }

 private:
  bool at_end() const { return p_ >= t_.size(); }
  static bool digit(char c) { return c >= '0' && c <= '9'; }

  R lit(std::string_view s) {
    for (char c : s) {
      if (at_end()) return kEnd;
      if (t_[p_] != c) return kFail;
      ++p_;
    }
    return kOk;
  }
  R digits() {
    if (at_end()) return kEnd;
    if (!digit(t_[p_])) return kFail;
    while (!at_end() && digit(t_[p_])) ++p_;
    return at_end() ? kEnd : kOk;
  }
  // Some index of the range is written with these digits first.
  bool starts_an_index(const std::string& d) const {
    if (d.size() > 1 && d[0] == '0') return false;
    if (d == "0") return g_.first_index <= 0 && 0 <= g_.last_index;
    const long long v = std::stoll(d);
    for (long long scale = 1; v * scale <= g_.last_index; scale *= 10)
      if (v * scale + scale - 1 >= g_.first_index) return true;
    return false;
  }
  R index() {
    const R prefix = lit(g_.index_prefix);
    if (prefix != kOk) return prefix;
    if (at_end()) return kEnd;
    std::string d;
    while (!at_end() && digit(t_[p_]) && d.size() < 12) d += t_[p_++];
    if (d.empty() || d.size() >= 12) return kFail;
    if (at_end()) return starts_an_index(d) ? kEnd : kFail;
    if (d.size() > 1 && d[0] == '0') return kFail;
    const long long v = std::stoll(d);
    return v >= g_.first_index && v <= g_.last_index ? kOk : kFail;
  }
  R list() {
    if (at_end()) return kEnd;
    const char first = g_.index_prefix.empty() ? '\0' : g_.index_prefix[0];
    if (!digit(t_[p_]) && t_[p_] != first) return g_.allow_empty ? kOk : kFail;
    for (;;) {
      const R r = index();
      if (r != kOk) return r;
      if (at_end()) return kEnd;
      if (t_[p_] != ',') return kOk;
      const R sep = lit(", ");
      if (sep != kOk) return sep;
    }
  }
  R nested() {
    for (;;) {
      R r = lit("[");
      if (r == kOk) r = list();
      if (r == kOk) r = lit("]");
      if (r != kOk) return r;
      if (at_end()) return kEnd;
      if (t_[p_] != ',') return kOk;
      r = lit(", ");
      if (r != kOk) return r;
    }
  }

  const problems::GrammarSpec& g_;
  std::string_view t_;
  std::size_t p_ = 0;
};

}  // namespace

bool viable_prefix(const problems::GrammarSpec& spec, std::string_view text) {
  return PrefixRecogniser(spec, text).viable();
}

std::shared_ptr<const problems::Instance> make_instance(const std::string& problem, int n, std::uint64_t seed) {
  problems::GenerateOptions options;
  options.n = n;
  return problems::problem_by_name(problem).generate(options, seed);
}

std::string allowed_after(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                          const GrammarOptions& options, const std::string& prefix) {
  GrammarState state = make_grammar_state(problem, std::move(instance), Vocabulary::byte_level(), options);
  for (char c : prefix)
    if (!state.accept(static_cast<unsigned char>(c))) return "refused '" + std::string(1, c) + "'";
  std::string out;
  for (int b = 0; b < 256; ++b)
    if (state.mask().test(b)) out += static_cast<char>(b);
  if (state.mask().test(256)) out += "<eos>";
  return out;
}

}  // namespace falcon::decoding::testing
