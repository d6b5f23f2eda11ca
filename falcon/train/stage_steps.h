#pragma once
// One forward + backward of each stage on one (micro-)batch. Gradients are accumulated into the
// model's .grad, scaled by `loss_scale` (1 / grad_accum); the trainer clips, steps and zeroes.
//
// Data parallel: the arguments are this rank's slice of the global batch, and `share` sums the
// counts that normalise each loss (SFT tokens, BOPO groups, GRPO sequences, DPO pairs) over the
// ranks, so each rank's loss is its exact part of the one-process loss of the global batch.
// Every rank must call the same step at the same point, also with an empty slice (the sum is a
// collective); the trainer then sums the gradients over ranks.
#include <cstdint>
#include <vector>

#include "falcon/train/batch_share.h"
#include "falcon/train/examples.h"
#include "falcon/train/recipe.h"
#include "falcon/train/rollout.h"

namespace falcon::train {

// What a step did on this rank, as sums and counts, so global_metrics gives the global batch's.
struct StepMetrics {
  double loss = 0.0;                  // this rank's part of the batch loss (the parts add up to it)
  std::int64_t tokens = 0;            // tokens through the teacher-forced passes
  std::int64_t groups = 0;            // instances (SFT: sequences) that contributed
  std::int64_t skipped_groups = 0;    // degenerate: fewer than two distinct feasible objectives, ...
  std::int64_t pairs = 0;
  std::int64_t anchored_on_label = 0; // groups whose y* is the reference label
  double reward_sum = 0.0;            // GRPO / FOARL: over every sample
  std::int64_t rewards = 0;           // samples rewarded
  double mean_reward() const { return rewards > 0 ? reward_sum / rewards : 0.0; }
  StepMetrics& operator+=(const StepMetrics& other);
};

// Every field summed over the ranks (a collective).
StepMetrics global_metrics(const StepMetrics& local, const BatchShare& share);

StepMetrics sft_step(model::CausalLm& model, const std::vector<Sequence>& sequences, int pad_id, double loss_scale,
                     const BatchShare& share = {});

// Definition 3.6 over the groups of one batch (groups[i] are the K samples of items[i]).
StepMetrics bopo_step(model::CausalLm& model, const std::vector<RolloutItem>& items,
                      const std::vector<std::vector<RolloutSample>>& groups, const StageSpec& stage, int pad_id,
                      double loss_scale, const BatchShare& share = {});

// GRPO with gap rewards (kGrpo) or the FOARL reward (kFoarl).
StepMetrics grpo_step(model::CausalLm& model, const std::vector<RolloutItem>& items,
                      const std::vector<std::vector<RolloutSample>>& groups, const StageSpec& stage, int pad_id,
                      double loss_scale, const BatchShare& share = {});

// DPO on (best, worst) of each group, reference = adapters disabled.
StepMetrics dpo_step(model::CausalLm& model, const std::vector<RolloutItem>& items,
                     const std::vector<std::vector<RolloutSample>>& groups, const StageSpec& stage, int pad_id,
                     double loss_scale, const BatchShare& share = {});

}  // namespace falcon::train
