#pragma once
// The training half of each algorithm, one registry line each (algorithms.cpp): how a sampling
// stage turns its scored rollouts into a micro-batch, and the micro-batch's loss. Their keys
// register in recipe/algorithms.h; each algorithm is a file pair here (sft, bopo, grpo, dpo) and
// one there.
#include <vector>

#include "falcon/policy/rollout.h"
#include "falcon/recipe/stage.h"
#include "falcon/train/train_step.h"

namespace falcon::train {

struct AlgorithmSteps {
  recipe::StageKind kind;
  // A sampling stage's micro-batch: groups[i] are the K scored samples of items[i]. Null for SFT,
  // whose micro-batches are dataset sequences (prepare_sft).
  MicroBatch (*prepare)(const std::vector<policy::RolloutItem>& items,
                        const std::vector<std::vector<policy::RolloutSample>>& groups, const recipe::StageSpec& stage);
  // The micro-batch's part of the step loss, divided by step_count (the count summed over the step).
  MicroBatchLoss (*loss)(model::CausalLm& model, const MicroBatch& batch, const recipe::StageSpec& stage, int pad_id,
                         double step_count);
};

const AlgorithmSteps& algorithm_steps(recipe::StageKind kind);

// A sampling stage's micro-batch, by its algorithm's prepare.
MicroBatch prepare_sampled(const std::vector<policy::RolloutItem>& items,
                           const std::vector<std::vector<policy::RolloutSample>>& groups, const recipe::StageSpec& stage);

}  // namespace falcon::train
