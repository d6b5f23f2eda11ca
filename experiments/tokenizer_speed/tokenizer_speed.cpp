// Encoding speed of falcon::text::Tokenizer (plain C++) against libsentencepiece on prompts, for
// the tokenizers the trainer uses. Both must give the same ids (checked on every prompt first).
// Build and run: experiments/tokenizer_speed/run.sh
#include <sentencepiece_processor.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "falcon/text/tokenizer.h"
#include "falcon/tokenizer_training/corpus.h"
#include "falcon/tokenizer_training/train.h"

using namespace falcon::text;
using Clock = std::chrono::steady_clock;

// Encodes every text repeatedly for at least `min_seconds`; returns {tokens per second, passes}.
template <typename Encode>
std::pair<double, int> measure(const std::vector<std::string>& texts, double min_seconds, Encode encode) {
  std::size_t tokens = 0;
  int passes = 0;
  const auto start = Clock::now();
  double seconds = 0;
  while (seconds < min_seconds) {
    for (const auto& t : texts) tokens += encode(t);
    ++passes;
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return {static_cast<double>(tokens) / seconds, passes};
}

int main(int argc, char** argv) {
  const double min_seconds = argc > 1 ? std::stod(argv[1]) : 2.0;
  CorpusOptions train_options;
  train_options.instances_per_problem = 64;
  const auto texts = corpus_texts(generate_corpus(train_options));
  struct Set {
    std::string name;
    std::vector<std::string> prompts;
  };
  std::vector<Set> sets;
  for (int n : {0, 100}) {
    CorpusOptions test;
    test.instances_per_problem = 16;
    test.seed = 100000;
    test.n = n;
    Set set{n == 0 ? "default n (20; mis 50)" : "n = 100", {}};
    for (const auto& c : generate_corpus(test)) set.prompts.push_back(c.prompt + std::string(kPromptEnd));
    sets.push_back(std::move(set));
  }
  const auto dir = std::filesystem::temp_directory_path() / "falcon_tokenizer_speed";
  std::filesystem::create_directories(dir);
  std::printf("| tokenizer | prompts | bytes/prompt | tokens/prompt | ours tokens/s | libsentencepiece tokens/s | ours / sp |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|\n");
  for (const auto& [label, numbers, type] : std::vector<std::tuple<std::string, NumberHandling, std::string>>{
           {"bpe plain 2000", NumberHandling::kPlain, "bpe"},
           {"bpe split_digits 2000", NumberHandling::kSplitDigits, "bpe"},
           {"unigram plain 2000", NumberHandling::kPlain, "unigram"}}) {
    TrainOptions options;
    options.vocab_size = 2000;
    options.numbers = numbers;
    options.model_type = type;
    options.num_threads = 2;
    const std::string prefix = (dir / "tok").string();
    train_tokenizer(texts, prefix, options);
    const Tokenizer ours = Tokenizer::load(prefix + ".model");
    sentencepiece::SentencePieceProcessor sp;
    if (!sp.Load(prefix + ".model").ok()) return 1;
    for (const auto& set : sets) {
      std::size_t bytes = 0, tokens = 0;
      for (const auto& p : set.prompts) {
        std::vector<int> expected;
        if (!sp.Encode(p, &expected).ok() || ours.encode(p) != expected) {
          std::fprintf(stderr, "ids differ: %s\n", label.c_str());
          return 1;
        }
        bytes += p.size();
        tokens += expected.size();
      }
      const auto [ours_rate, ours_passes] = measure(set.prompts, min_seconds, [&](const std::string& t) { return ours.encode(t).size(); });
      const auto [sp_rate, sp_passes] = measure(set.prompts, min_seconds, [&](const std::string& t) {
        std::vector<int> ids;
        sp.Encode(t, &ids);
        return ids.size();
      });
      const double count = static_cast<double>(set.prompts.size());
      std::printf("| %s | %s | %.0f | %.0f | %.3g | %.3g | %.2f |\n", label.c_str(), set.name.c_str(), bytes / count,
                  tokens / count, ours_rate, sp_rate, ours_rate / sp_rate);
    }
  }
  std::filesystem::remove_all(dir);
  return 0;
}
