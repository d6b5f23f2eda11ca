#pragma once
// torch::optim::AdamW's state keyed by parameter NAME (LibTorch keys it by tensor address, which
// means nothing in another process), as tensors plus the param groups' settings in JSON:
//
//   "<name>.exp_avg", "<name>.exp_avg_sq", "<name>.max_exp_avg_sq" (amsgrad), "<name>.step" (int64 scalar)
//   groups: {"optimizer": "AdamW", "param_groups": [{"lr", "betas", "eps", "weight_decay",
//            "amsgrad", "params": [names]}], "params_without_state": [names]}
//
// Restoring it continues training bit-identically: the tensors are copied exactly (same dtype).
#include <string>

#include <nlohmann/json.hpp>

#include "falcon/core/torch/shim.h"
#include "falcon/model/safetensors.h"

namespace falcon::model {

struct AdamWStateDict {
  TensorMap tensors;      // on the CPU
  nlohmann::json groups;
};

// Names come from `module`; every parameter of the optimizer must be one of the module's.
AdamWStateDict adamw_state_dict(torch::optim::AdamW& optimizer, const torch::nn::Module& module);

// Replaces the optimizer's state and its groups' settings (lr, betas, eps, weight_decay, amsgrad).
// The groups must list the same parameter names in the same order. A missing, extra or
// mis-shaped tensor, or a group that differs, is one falcon::Error naming `source` and the tensor.
void load_adamw_state_dict(torch::optim::AdamW& optimizer, const torch::nn::Module& module,
                           const AdamWStateDict& state, const std::string& source);

}  // namespace falcon::model
