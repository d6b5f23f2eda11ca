// Tokens per instance per problem for each number-handling choice (tokenizer).
// Trains each tokenizer on `train` generated instances per problem (default sizes: n=20,
// mis n=50; labelled by the first heuristic), then counts tokens on `test` held-out instances.
// Build and run: experiments/tokenizer_choice/run.sh
#include <array>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "falcon/text/tokenizer.h"
#include "falcon/tokenizer_training/corpus.h"
#include "falcon/tokenizer_training/train.h"

using namespace falcon::text;

int main(int argc, char** argv) {
  int train = argc > 1 ? std::stoi(argv[1]) : 64;
  int test = argc > 2 ? std::stoi(argv[2]) : 16;
  CorpusOptions train_options;
  train_options.instances_per_problem = train;
  train_options.seed = 1;
  CorpusOptions test_options;
  test_options.instances_per_problem = test;
  test_options.seed = 100000;
  auto train_corpus = generate_corpus(train_options);
  auto test_corpus = generate_corpus(test_options);
  auto texts = corpus_texts(train_corpus);

  struct Config {
    std::string label;
    TrainOptions options;
  };
  std::vector<Config> configs;
  for (int vocab : {512, 2000})
    for (auto numbers : {NumberHandling::kPlain, NumberHandling::kSplitDigits}) {
      TrainOptions o;
      o.vocab_size = vocab;
      o.numbers = numbers;
      o.num_threads = 2;
      configs.push_back({std::string(numbers == NumberHandling::kPlain ? "plain" : "split") + " " + std::to_string(vocab), o});
    }
  auto dir = std::filesystem::temp_directory_path() / "falcon_tokenizer_choice";
  std::filesystem::create_directories(dir);

  // problem -> config -> {prompt tokens, solution tokens, bytes}
  std::vector<int> vocab(configs.size(), 0);
  std::vector<std::string> problems;
  std::map<std::string, std::vector<std::array<double, 2>>> tokens;
  std::map<std::string, double> bytes;
  for (const auto& c : test_corpus) {
    if (!tokens.count(c.problem)) problems.push_back(c.problem);
    tokens[c.problem].resize(configs.size(), {0, 0});
    bytes[c.problem] += static_cast<double>(c.prompt.size() + c.solution.size()) / test;
  }
  for (std::size_t k = 0; k < configs.size(); ++k) {
    std::string prefix = (dir / ("tok" + std::to_string(k))).string();
    train_tokenizer(texts, prefix, configs[k].options);
    Tokenizer tok = Tokenizer::load(prefix + ".model");
    vocab[k] = tok.vocab_size();
    for (const auto& c : test_corpus) {
      auto p = tok.encode(c.prompt);
      auto s = tok.encode(c.solution);
      if (tok.decode(p) != c.prompt || tok.decode(s) != c.solution) {
        std::fprintf(stderr, "round trip failed: %s %s\n", configs[k].label.c_str(), c.problem.c_str());
        return 1;
      }
      tokens[c.problem][k][0] += static_cast<double>(p.size()) / test;
      tokens[c.problem][k][1] += static_cast<double>(s.size()) / test;
    }
  }
  std::filesystem::remove_all(dir);

  std::printf("Tokens per instance (prompt + solution; solution alone in parentheses), mean over %d held-out\n"
              "instances per problem; tokenizers BPE, trained on %d instances per problem.\n\n", test, train);
  std::printf("| problem | bytes |");
  for (const auto& c : configs) std::printf(" %s |", c.label.c_str());
  std::printf("\n|---|---:|");
  for (std::size_t k = 0; k < configs.size(); ++k) std::printf("---:|");
  std::printf("\n");
  std::vector<double> total(configs.size(), 0);
  double total_bytes = 0;
  for (const auto& problem : problems) {
    std::printf("| %s | %.0f |", problem.c_str(), bytes[problem]);
    total_bytes += bytes[problem];
    for (std::size_t k = 0; k < configs.size(); ++k) {
      const auto& t = tokens[problem][k];
      total[k] += t[0] + t[1];
      std::printf(" %.1f (%.1f) |", t[0] + t[1], t[1]);
    }
    std::printf("\n");
  }
  std::printf("| **sum** | %.0f |", total_bytes);
  for (double t : total) std::printf(" **%.1f** |", t);
  std::printf("\n| vocab reached | |");
  for (int v : vocab) std::printf(" %d |", v);
  std::printf("\n");
  return 0;
}
