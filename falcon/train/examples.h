#pragma once
// Token sequences for training and sampling. Every sequence the model sees is
//
//   [BOS] prompt_text(instance) [solution tokens] [EOS]
//
// (policy/prompt_text.h). Loss and log-probabilities cover the solution and the EOS.
#include <cstdint>
#include <string>
#include <vector>

#include "falcon/core/torch/shim.h"
#include "falcon/problems/problem.h"

namespace falcon::train {

struct Sequence {
  std::vector<int> prompt;    // with BOS
  std::vector<int> solution;  // with EOS
};

// A right-padded batch for teacher forcing: input = (prompt + solution)[:-1], target = [1:],
// loss_mask = 1 where the target is a solution token (EOS included).
struct Batch {
  torch::Tensor input_ids;  // (B, T) int64
  torch::Tensor targets;    // (B, T) int64
  torch::Tensor loss_mask;  // (B, T) float
  std::int64_t solution_tokens = 0;
  std::int64_t tokens = 0;  // real (unpadded) input tokens
};
Batch collate(const std::vector<Sequence>& sequences, int pad_id, const torch::Device& device = torch::kCPU);

}  // namespace falcon::train
