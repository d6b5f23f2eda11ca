#pragma once
// Measurements of the model itself: matmul peak, training throughput and MFU, and
// decoding throughput with and without the KV cache. Each returns JSON figures; nothing here
// asserts a speed (targets are for people reading the figures, not for tests).
#include <nlohmann/json.hpp>

#include "falcon/model/config/model_config.h"

namespace falcon::bench {

struct TrainingBenchOptions {
  std::int64_t batch = 8;
  std::int64_t sequence = 256;
  int warmup_steps = 2;
  int steps = 6;
};

struct DecodingBenchOptions {
  std::int64_t prompt_tokens = 64;
  std::int64_t new_tokens = 256;
  std::vector<std::int64_t> batches = {1, 64};
  bool without_cache = true;  // the baseline: a full forward over the whole sequence per token
};

// Best fp32 matmul FLOP/s of this process over a few square sizes (the MFU denominator).
nlohmann::ordered_json measure_matmul_peak(const torch::Device& device, torch::ScalarType dtype);
nlohmann::ordered_json measure_training(const model::ModelConfig& config, const TrainingBenchOptions& options,
                                        const torch::Device& device, torch::ScalarType dtype, double peak_flops);
nlohmann::ordered_json measure_decoding(const model::ModelConfig& config, const DecodingBenchOptions& options,
                                        const torch::Device& device, torch::ScalarType dtype);

}  // namespace falcon::bench

namespace falcon::bench {

struct ConstrainedBenchOptions {
  std::int64_t batch = 64;        // rows: prompts x samples
  int samples_per_prompt = 8;
  int max_new_tokens = 256;
  int n = 50;                     // TSP instance size (the grammar's index range)
};

// End-to-end sampling tokens/s with the TSP grammar mask vs without, same model and prompts, on
// a synthetic vocabulary of config.vocab_size tokens (numbers, separators, random pieces).
nlohmann::ordered_json measure_constrained_decoding(const model::ModelConfig& config,
                                                    const ConstrainedBenchOptions& options,
                                                    const torch::Device& device, torch::ScalarType dtype);

}  // namespace falcon::bench
