#pragma once
// The trainer's own SFT step (train::score_sequences, sft_loss, backward, AdamW) on batches shaped
// like a text style's sequences, against the same step that projects every position after the
// shortest prompt through lm_head (notes and padding included: the trainer before it picked the
// trained positions), in fp32 and under bf16 autocast: tokens/s of each, alternating in one process.
#include <nlohmann/json.hpp>

#include "falcon/model/config/model_config.h"

namespace falcon::bench {

struct ScoringBenchOptions {
  int batch = 32;
  int prompt_tokens = 222;     // TSP-20's compact prompt
  int solution_tokens = 69;    // and its solution
  double trained_share = 1.0;  // of the solution tokens the model writes (the rest are notes)
  int length_spread = 0;       // solution lengths drawn in [solution - spread, solution]
  int steps = 6;               // timed steps per arm and round
  int rounds = 2;              // arms alternate, round by round
  int profile_ops = 0;         // > 0: each arm's this many costliest operators, from `steps` more profiled steps
};

nlohmann::ordered_json measure_scoring(const model::ModelConfig& config, const ScoringBenchOptions& options);

}  // namespace falcon::bench
