#pragma once
// Grammar-mask figures: mask time per decoding step (p50 / p99) at a trained ~2k (or a given
// tokenizer's, e.g. Qwen's ~152k tokenizer.json) and a synthetic 32k vocabulary, with and without
// the semantic mask, compile time and memory per (grammar, n), and the tokenizer's encoding speed. The steps follow real solution texts (heuristic solutions of generated
// instances, encoded by the trained tokenizer, or longest-match over the synthetic
// vocabulary), as a model that writes solutions would. Returned as JSON so falcon_bench can
// merge it into its report.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace falcon::bench {

struct DecodingBenchOptions {
  std::string tokenizer;   // a tokenizer.model or tokenizer.json; "" = train a BPE (vocabulary 2000) on generated text
  int synthetic_vocab = 32000;
  std::vector<std::string> problems;  // empty = every registered problem
  int mask_n = 100;            // instance size for the per-step timings
  int mask_steps = 20000;      // timed steps per (vocabulary, problem), grammar mask
  int semantic_steps = 5000;   // timed steps per (vocabulary, problem), semantic mask
  std::vector<int> compile_sizes{20, 100, 1000};
  int compile_repeats = 3;                   // the best of these is reported
  std::uint64_t seed = 1;
};

nlohmann::json run_decoding_benchmarks(const DecodingBenchOptions& options);

}  // namespace falcon::bench
