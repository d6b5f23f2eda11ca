#pragma once
// BOPO, the paper's Definition 3.6: best-anchored pairs, objective-gap weights and the loss, and
// the micro-batch a BOPO step trains on.
//   y*   = the best feasible sample of a group (K samples of one instance);
//   pairs (y*, y_i) for every other feasible y_i, w_i = Delta_i / mean(Delta),
//          Delta_i = |f(y_i) - f(y*)| in the problem's sense;
//   loss = E_p [ -(1 / (K' - 1)) sum_i w_i log sigma(beta (log pi(y*) - log pi(y_i))) ],
// the expectation being one mean over the used groups of the whole optimizer step (train_step.h).
// Its keys: recipe/bopo_keys.h.
#include <optional>
#include <vector>

#include "falcon/policy/rollout.h"
#include "falcon/recipe/stage.h"
#include "falcon/train/scored_sample.h"
#include "falcon/train/train_step.h"

namespace falcon::train {

// The pairs of one group. coefficient_i = w_i / (K' - 1), K' - 1 being the losers, so summing
// coefficient_i * loss_i over the pairs is the paper's per-instance average.
struct BopoPairs {
  int best = -1;  // y* (the first one on ties)
  std::vector<int> losers;
  std::vector<double> weights;       // w_i, mean 1
  std::vector<double> coefficients;  // w_i / (K' - 1)
};
// nullopt for a degenerate group (fewer than two feasible samples, or all feasible objectives
// equal: mean Delta = 0 makes w undefined) — the trainer skips and counts it.
// Beyond the paper, infeasible_losers: every infeasible sample is a loser too, weighted as the
// worst feasible loser (at least 1), so a group needs only one feasible sample. The paper's pairs
// leave the invalid samples alone, and the model's raw validity drifts down as BOPO trains.
std::optional<BopoPairs> bopo_pairs(const std::vector<ScoredSample>& group, problems::Sense sense,
                                    bool infeasible_losers = false);

// -sum_p c_p * log sigmoid(beta * s_p), s_p = logp_winner - logp_loser (minus the same difference
// under the reference policy when given: DPO-style anchoring). coefficients (P,) carry
// w_i / (K'-1) / used groups, so the sum is the paper's expectation. All (P,).
torch::Tensor bopo_loss(const torch::Tensor& logp_winner, const torch::Tensor& logp_loser,
                        const torch::Tensor& coefficients, double beta,
                        const torch::Tensor& ref_winner = {}, const torch::Tensor& ref_loser = {});

// The pairs of every group of a micro-batch, each sequence once; count = used groups. With
// anchor_on_label the reference label joins each group's candidates.
MicroBatch prepare_bopo(const std::vector<policy::RolloutItem>& items,
                        const std::vector<std::vector<policy::RolloutSample>>& groups, const recipe::StageSpec& stage);

// The micro-batch's part of the step's BOPO loss (divided by step_count, the used groups of the
// whole step); reference: adapters scores the sequences again with the adapters disabled,
// sft_weight adds the per-token NLL of each y*.
MicroBatchLoss bopo_micro_batch_loss(model::CausalLm& model, const MicroBatch& batch, const recipe::StageSpec& stage,
                                     int pad_id, double step_count);

}  // namespace falcon::train
