#pragma once
// LoRA (Hu et al. 2021) in PEFT's layout: a frozen base weight W [out, in] plus
//   y = x W^T + b + (alpha / r) * dropout(x) A^T B^T,   A = lora_A.weight [r, in] (Kaiming-uniform),
//                                                       B = lora_B.weight [out, r] (zeros)
// so a fresh adapter is the identity on the base model. Submodule and parameter names are PEFT's
// ("q_proj.lora_A.weight"), so adapter files load in PEFT and back.
#include <string>
#include <vector>

#include "falcon/core/torch/shim.h"
#include "falcon/model/config/lora_config.h"

namespace falcon::model {

// A linear layer with an optional LoRA adapter. Parameters: "weight" [out, in], "bias" [out]
// when bias, and once add_adapter() ran: "lora_A.weight" [r, in], "lora_B.weight" [out, r].
class LoraLinearImpl : public torch::nn::Module {
 public:
  LoraLinearImpl(std::int64_t in_features, std::int64_t out_features, bool bias,
                 const torch::TensorOptions& options = {});

  torch::Tensor forward(const torch::Tensor& x);  // (..., in) -> (..., out)

  void add_adapter(const LoraConfig& config);
  bool has_adapter() const { return !lora_A_.is_empty(); }
  // W += scaling * B A (and back). Merging twice, or unmerging an unmerged layer, is an error.
  void merge();
  void unmerge();
  bool merged() const { return merged_; }
  // While disabled the layer computes the base model only (merged or not): the reference policy.
  void set_adapter_enabled(bool enabled) { adapter_enabled_ = enabled; }
  bool adapter_enabled() const { return adapter_enabled_; }

  torch::Tensor weight;
  torch::Tensor bias;       // undefined when the layer has none

 private:
  torch::Tensor delta_weight() const;  // scaling * B A, (out, in)

  std::int64_t in_features_, out_features_;
  torch::nn::Linear lora_A_{nullptr}, lora_B_{nullptr};
  torch::nn::Dropout dropout_{nullptr};
  double scaling_ = 0.0;
  bool merged_ = false;
  bool adapter_enabled_ = true;
};
TORCH_MODULE(LoraLinear);

}  // namespace falcon::model
