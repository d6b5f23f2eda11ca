#pragma once
// GRPO (Shao et al. 2024) with gap rewards, and FOARL: the same loss on our reading of
// LLMCoSolver's reward. Their keys: recipe/grpo_keys.h.
#include <vector>

#include "falcon/policy/rollout.h"
#include "falcon/problems/problem.h"
#include "falcon/recipe/stage.h"
#include "falcon/train/scored_sample.h"
#include "falcon/train/train_step.h"

namespace falcon::train {

// A_i = (r_i - mean r) / (std r + eps), population std.
std::vector<double> group_advantages(const std::vector<double>& rewards, double eps = 1e-6);

// GRPO's reward of one sample: -gap to the reference objective when feasible, and
// infeasible_reward (default -1: worse than a 100% gap) otherwise.
double gap_reward(const ScoredSample& sample, double reference_objective, problems::Sense sense,
                  double infeasible_reward = -1.0);

// FOARL, our reading of LLMCoSolver's reward: feasibility partial credit plus 1 / (1 + gap):
//   parsed and feasible:    1 + 1 / (1 + max(gap, 0))
//   parsed, infeasible:     1 / (1 + violation)          (partial credit in (0, 1])
//   unparsable:             0
double foarl_reward(bool parsed, const ScoredSample& sample, double violation, double reference_objective,
                    problems::Sense sense);

// On-policy (one update per batch, so the clipped ratio is 1 and only its gradient matters):
// -mean_i [ mean_t A_i * exp(lp - sg(lp)) - kl_coef * KL_t ], KL_t the k3 estimator
// exp(ref - lp) - (ref - lp) - 1 when ref_token_logp is given (mean_i = sum_i / count when
// count > 0). token_logp, mask, ref_token_logp: (B, T); advantages: (B,).
// length_scale > 0 replaces mean_t (each sequence's own length) by sum_t / length_scale, Dr. GRPO's
// constant (Liu et al. 2025): every token then weighs the same, where mean_t gives each token of a
// long failure less blame than one of a short failure, a pull towards long wrong answers.
torch::Tensor grpo_loss(const torch::Tensor& token_logp, const torch::Tensor& mask, const torch::Tensor& advantages,
                        const torch::Tensor& ref_token_logp = {}, double kl_coef = 0.0, double count = 0.0,
                        double length_scale = 0.0);

// Every sample with a non-zero advantage (or any, with a KL term) is a sequence; the reward is
// FOARL's in a FOARL stage, else the gap reward; count = those sequences. Without a label the
// group's best feasible objective is the reference.
MicroBatch prepare_grpo(const std::vector<policy::RolloutItem>& items,
                        const std::vector<std::vector<policy::RolloutSample>>& groups, const recipe::StageSpec& stage);

// The micro-batch's part of the step's loss (divided by step_count, the step's sequences).
MicroBatchLoss grpo_micro_batch_loss(model::CausalLm& model, const MicroBatch& batch, const recipe::StageSpec& stage,
                                     int pad_id, double step_count);

}  // namespace falcon::train
