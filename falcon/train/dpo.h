#pragma once
// DPO (Rafailov et al. 2023) on the best and the worst sample of each group, against the model
// with its adapters disabled. Its key: recipe/dpo_keys.h.
#include <vector>

#include "falcon/policy/rollout.h"
#include "falcon/recipe/stage.h"
#include "falcon/train/train_step.h"

namespace falcon::train {

// mean_p -log sigmoid(beta * ((w - ref_w) - (l - ref_l))), or the sum / count. All (P,).
torch::Tensor dpo_loss(const torch::Tensor& logp_winner, const torch::Tensor& logp_loser,
                       const torch::Tensor& ref_winner, const torch::Tensor& ref_loser, double beta,
                       double count = 0.0);

// (best, worst) of each group whose samples differ; count = pairs.
MicroBatch prepare_dpo(const std::vector<policy::RolloutItem>& items,
                       const std::vector<std::vector<policy::RolloutSample>>& groups, const recipe::StageSpec& stage);

// The micro-batch's part of the step's DPO loss (divided by step_count, the step's pairs).
MicroBatchLoss dpo_micro_batch_loss(model::CausalLm& model, const MicroBatch& batch, const recipe::StageSpec& stage,
                                    int pad_id, double step_count);

}  // namespace falcon::train
