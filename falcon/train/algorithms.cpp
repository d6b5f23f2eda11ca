#include "falcon/train/algorithms.h"

#include "falcon/core/error.h"
#include "falcon/train/bopo.h"
#include "falcon/train/dpo.h"
#include "falcon/train/grpo.h"
#include "falcon/train/sft.h"

namespace falcon::train {

const AlgorithmSteps& algorithm_steps(recipe::StageKind kind) {
  using recipe::StageKind;
  static const std::vector<AlgorithmSteps> all = {
      {StageKind::kSft, nullptr, sft_micro_batch_loss},
      {StageKind::kBopo, prepare_bopo, bopo_micro_batch_loss},
      {StageKind::kGrpo, prepare_grpo, grpo_micro_batch_loss},
      {StageKind::kFoarl, prepare_grpo, grpo_micro_batch_loss},
      {StageKind::kDpo, prepare_dpo, dpo_micro_batch_loss},
  };
  for (const auto& a : all)
    if (a.kind == kind) return a;
  throw Error("stage type '" + recipe::to_string(kind) + "' has no line in train/algorithms.cpp");
}

MicroBatch prepare_sampled(const std::vector<policy::RolloutItem>& items,
                           const std::vector<std::vector<policy::RolloutSample>>& groups, const recipe::StageSpec& stage) {
  const auto prepare = algorithm_steps(stage.kind).prepare;
  if (prepare == nullptr)
    throw Error("prepare_sampled: a " + recipe::to_string(stage.kind) + " stage samples nothing (use prepare_sft)");
  return prepare(items, groups, stage);
}

}  // namespace falcon::train
