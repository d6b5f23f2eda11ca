#pragma once
// Log-probabilities of target tokens and sequences, the input of every training loss (each loss
// lives with its algorithm: sft.h, bopo.h, grpo.h, dpo.h). Shapes: B sequences, T positions,
// V vocabulary.
#include "falcon/core/torch/shim.h"

namespace falcon::train {

// log pi(target_t | prefix) for every position: logits (B, T, V), targets (B, T) -> (B, T).
torch::Tensor token_logprobs(const torch::Tensor& logits, const torch::Tensor& targets);
// Sum over the positions where mask (B, T) is 1: (B,). With normalise, divided by the count
// (length-normalised log-probability).
torch::Tensor sequence_logprobs(const torch::Tensor& token_logp, const torch::Tensor& mask, bool normalise = false);

// Data parallel: the losses take an optional denominator `count` (> 0) that replaces the batch's
// own count. Given the global count of a batch split over ranks, each rank's loss is its part of
// the global mean, and the ranks' losses (and gradients) add up to the one-process ones.

}  // namespace falcon::train
