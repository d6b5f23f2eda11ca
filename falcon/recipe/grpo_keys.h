#pragma once
// The keys of GRPO and of FOARL (GRPO's loss on LLMCoSolver's reward). Their advantages,
// batches and loss: train/grpo.h.
#include <string>

#include "falcon/core/config.h"

namespace falcon::recipe {

struct StageSpec;

struct GrpoKeys {
  double kl_coef = 0.0;  // > 0: a k3 KL term against the model with its adapters disabled
  // grpo: each sequence's token mean; dr_grpo: its token sum over the model's positions, so
  // every token weighs the same (train/grpo.h).
  std::string loss_type = "grpo";
};

// stages[i].{kl_coef, loss_type} (`base` is "stages[i]."), given the stage's common keys.
GrpoKeys read_grpo_keys(Config& config, const std::string& base, const StageSpec& stage);

}  // namespace falcon::recipe
