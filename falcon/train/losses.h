#pragma once
// Training losses as pure functions of log-probabilities, so each is checked against
// hand-computed values (BOPO's: bopo.h). Shapes: B sequences, T positions, V vocabulary, P pairs.
#include "falcon/core/torch/shim.h"

namespace falcon::train {

// log pi(target_t | prefix) for every position: logits (B, T, V), targets (B, T) -> (B, T).
torch::Tensor token_logprobs(const torch::Tensor& logits, const torch::Tensor& targets);
// Sum over the positions where mask (B, T) is 1: (B,). With normalise, divided by the count
// (length-normalised log-probability).
torch::Tensor sequence_logprobs(const torch::Tensor& token_logp, const torch::Tensor& mask, bool normalise = false);

// Data parallel: the means below take an optional denominator `count` (> 0) that replaces this
// batch's own count. Given the global count of a batch split over ranks, each rank's loss is its
// part of the global mean, and the ranks' losses (and gradients) add up to the one-process ones.

// SFT: mean negative log-likelihood over the masked (solution) tokens of the whole batch, or
// their sum / count.
torch::Tensor sft_loss(const torch::Tensor& token_logp, const torch::Tensor& mask, double count = 0.0);

// DPO (Rafailov et al. 2023): mean_p -log sigmoid(beta * ((w - ref_w) - (l - ref_l))), or the
// sum / count.
torch::Tensor dpo_loss(const torch::Tensor& logp_winner, const torch::Tensor& logp_loser,
                       const torch::Tensor& ref_winner, const torch::Tensor& ref_loser, double beta,
                       double count = 0.0);

// GRPO on-policy (one update per batch, so the clipped ratio is 1 and only its gradient
// matters): -mean_i [ mean_t A_i * exp(lp - sg(lp)) - kl_coef * KL_t ], KL_t the k3 estimator
// exp(ref - lp) - (ref - lp) - 1 when ref_token_logp is given (mean_i = sum_i / count when
// count > 0). token_logp, mask, ref_token_logp: (B, T); advantages: (B,).
// length_scale > 0 replaces mean_t (each sequence's own length) by sum_t / length_scale, Dr. GRPO's
// constant (Liu et al. 2025): every token then weighs the same, where mean_t gives each token of a
// long failure less blame than one of a short failure, a pull towards long wrong answers.
torch::Tensor grpo_loss(const torch::Tensor& token_logp, const torch::Tensor& mask, const torch::Tensor& advantages,
                        const torch::Tensor& ref_token_logp = {}, double kl_coef = 0.0, double count = 0.0,
                        double length_scale = 0.0);

}  // namespace falcon::train
