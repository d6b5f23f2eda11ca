#include "falcon/model/lora.h"

#include <cmath>

#include "falcon/core/error.h"
#include "falcon/model/linear.h"

namespace falcon::model {

LoraLinearImpl::LoraLinearImpl(std::int64_t in_features, std::int64_t out_features, bool with_bias,
                               const torch::TensorOptions& options)
    : in_features_(in_features), out_features_(out_features) {
  // Overwritten by checkpoints; the CausalLm re-initialises with std 0.02 like HF's Llama.
  weight = register_parameter("weight", torch::empty({out_features, in_features}, options));  // (out, in)
  torch::nn::init::kaiming_uniform_(weight, /*a=*/std::sqrt(5.0));
  if (with_bias) bias = register_parameter("bias", torch::zeros({out_features}, options));  // (out,)
}

void LoraLinearImpl::add_adapter(const LoraConfig& config) {
  if (has_adapter()) throw Error("LoRA: this layer already has an adapter");
  if (config.rank <= 0) throw Error("LoRA: rank must be positive (lora.rank=" + std::to_string(config.rank) + ")");
  const auto options = weight.options();
  // nn::Linear's default init is kaiming_uniform_(a = sqrt(5)): PEFT's lora_A init exactly.
  lora_A_ = register_module("lora_A", torch::nn::Linear(torch::nn::LinearOptions(in_features_, config.rank).bias(false)));
  lora_B_ = register_module("lora_B", torch::nn::Linear(torch::nn::LinearOptions(config.rank, out_features_).bias(false)));
  lora_A_->to(options.dtype().toScalarType());
  lora_B_->to(options.dtype().toScalarType());
  lora_A_->to(options.device());
  lora_B_->to(options.device());
  {
    torch::NoGradGuard no_grad;
    lora_B_->weight.zero_();  // (out, r): the adapter starts as the identity on the base model
  }
  dropout_ = register_module("lora_dropout", torch::nn::Dropout(config.dropout));
  scaling_ = config.scaling();
}

torch::Tensor LoraLinearImpl::delta_weight() const {
  return torch::matmul(lora_B_->weight, lora_A_->weight) * scaling_;  // (out, r) x (r, in) = (out, in)
}

torch::Tensor LoraLinearImpl::forward(const torch::Tensor& x) {
  auto y = model::linear(x, weight, bias);  // (..., out)
  if (!has_adapter()) return y;
  if (merged_) {
    // The merged weight already contains the adapter; the reference policy takes it back out.
    if (adapter_enabled_) return y;
    return y - torch::nn::functional::linear(x, delta_weight());
  }
  if (!adapter_enabled_) return y;
  return y + lora_B_(lora_A_(dropout_(x))) * scaling_;  // (..., in) -> (..., r) -> (..., out)
}

void LoraLinearImpl::merge() {
  if (!has_adapter()) return;
  if (merged_) throw Error("LoRA: adapters are already merged; unmerge them first");
  torch::NoGradGuard no_grad;
  weight.add_(delta_weight());
  merged_ = true;
}

void LoraLinearImpl::unmerge() {
  if (!has_adapter()) return;
  if (!merged_) throw Error("LoRA: adapters are not merged");
  torch::NoGradGuard no_grad;
  weight.sub_(delta_weight());
  merged_ = false;
}

}  // namespace falcon::model
