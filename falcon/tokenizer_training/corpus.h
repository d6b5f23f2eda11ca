#pragma once
// Training text for tokenizers: prompts and formatted solutions of generated instances, or of
// a dataset's labelled instances.
#include <cstdint>
#include <string>
#include <vector>

#include "falcon/formats/text_style.h"

namespace falcon::text {

struct CorpusText {
  std::string problem;
  std::string prompt;    // Problem::prompt, without the trainer's kPromptEnd
  std::string solution;  // Problem::format of the label
};

// For each problem, `instances_per_problem` generated instances (n = `n`, default 50 for mis and
// 20 otherwise), each labelled by the problem's first heuristic in the solver registry.
struct CorpusOptions {
  std::vector<std::string> problems;  // empty = all registered problems
  int instances_per_problem = 8;
  int n = 0;                          // 0 = default size: 50 for mis, 20 otherwise
  std::uint64_t seed = 1;
  formats::TextStyle style;          // the text the model will read and write
};
std::vector<CorpusText> generate_corpus(const CorpusOptions& options);

// The instances of one split of a dataset file (docs/dataset_format.md) with their labels.
struct DatasetCorpusOptions {
  std::string split = "train";
  std::int64_t limit = 0;  // first `limit` records; 0 = all
  formats::TextStyle style;
};
std::vector<CorpusText> dataset_corpus(const std::string& path, const DatasetCorpusOptions& options = {});

// The texts the trainer feeds the model, as separate training sentences: prompt + kPromptEnd
// (falcon/text/tokenizer.h), then the solution.
std::vector<std::string> corpus_texts(const std::vector<CorpusText>& corpus);

}  // namespace falcon::text
