#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>

#include <unistd.h>

#include "falcon/problems/registry.h"
#include "falcon/text/tokenizer.h"

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

std::shared_ptr<const problems::Instance> make_instance(const std::string& problem, int n, std::uint64_t seed) {
  problems::GenerateOptions options;
  options.n = n;
  return problems::problem_by_name(problem).generate(options, seed);
}

}  // namespace falcon::decoding::testing
