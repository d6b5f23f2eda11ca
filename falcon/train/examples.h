#pragma once
// Token sequences for training and sampling. Every sequence the model sees is
//
//   [BOS] prompt_text(instance) [solution tokens] [EOS]
//
// (policy/prompt_text.h). Loss and log-probabilities cover the solution and the EOS.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "falcon/core/torch/shim.h"
#include "falcon/problems/problem.h"

namespace falcon::train {

struct Sequence {
  Sequence() = default;
  Sequence(std::vector<int> prompt_tokens, std::vector<int> solution_tokens)
      : prompt(std::move(prompt_tokens)), solution(std::move(solution_tokens)) {}

  std::vector<int> prompt;    // with BOS
  std::vector<int> solution;  // with EOS
  // Empty, or one flag per solution token: the tokens a decoder with computed notes writes itself
  // (note_tokens), which the loss leaves out.
  std::vector<bool> decoder_written;
  // The solution tokens the loss counts.
  std::size_t trained_tokens() const;
};

// A right-padded batch for teacher forcing: input = (prompt + solution)[:-1], target = [1:],
// loss_mask = 1 where the target is a solution token (EOS included) that the decoder does not write.
struct Batch {
  torch::Tensor input_ids;  // (B, T) int64
  torch::Tensor targets;    // (B, T) int64
  torch::Tensor loss_mask;  // (B, T) float
  std::int64_t solution_tokens = 0;  // the targets the loss counts (loss_mask's sum)
  std::int64_t tokens = 0;  // real (unpadded) input tokens
};
Batch collate(const std::vector<Sequence>& sequences, int pad_id, const torch::Device& device = torch::kCPU);

}  // namespace falcon::train
