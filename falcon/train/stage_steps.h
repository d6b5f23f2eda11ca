#pragma once
// One forward + backward of each stage on one (micro-)batch. Gradients are accumulated into the
// model's .grad, scaled by `loss_scale` (1 / grad_accum); the trainer clips, steps and zeroes.
#include <vector>

#include "falcon/train/examples.h"
#include "falcon/train/recipe.h"
#include "falcon/train/rollout.h"

namespace falcon::train {

struct StepMetrics {
  double loss = 0.0;
  std::int64_t tokens = 0;         // tokens through the teacher-forced passes
  int groups = 0;                  // instances that contributed
  int skipped_groups = 0;          // degenerate: fewer than two distinct feasible objectives, ...
  int pairs = 0;
  int anchored_on_label = 0;       // groups whose y* is the reference label
  double mean_reward = 0.0;        // GRPO / FOARL
};

StepMetrics sft_step(model::CausalLm& model, const std::vector<Sequence>& sequences, int pad_id, double loss_scale);

// Definition 3.6 over the groups of one batch (groups[i] are the K samples of items[i]).
StepMetrics bopo_step(model::CausalLm& model, const std::vector<RolloutItem>& items,
                      const std::vector<std::vector<RolloutSample>>& groups, const StageSpec& stage, int pad_id,
                      double loss_scale);

// GRPO with gap rewards (kGrpo) or the FOARL reward (kFoarl).
StepMetrics grpo_step(model::CausalLm& model, const std::vector<RolloutItem>& items,
                      const std::vector<std::vector<RolloutSample>>& groups, const StageSpec& stage, int pad_id,
                      double loss_scale);

// DPO on (best, worst) of each group, reference = adapters disabled.
StepMetrics dpo_step(model::CausalLm& model, const std::vector<RolloutItem>& items,
                     const std::vector<std::vector<RolloutSample>>& groups, const StageSpec& stage, int pad_id,
                     double loss_scale);

}  // namespace falcon::train
