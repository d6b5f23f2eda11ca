#pragma once
// DPO's key (Rafailov et al. 2023, on the best and worst sample of each group). Its pairs,
// batches and loss: train/dpo.h. The reference policy is always the model with its adapters
// disabled, so a DPO stage trains LoRA adapters.
#include <string>

#include "falcon/core/config.h"

namespace falcon::recipe {

struct StageSpec;

struct DpoKeys {
  double beta = 0.1;
};

// stages[i].beta (`base` is "stages[i]."), given the stage's common keys (lora.rank > 0).
DpoKeys read_dpo_keys(Config& config, const std::string& base, const StageSpec& stage);

}  // namespace falcon::recipe
