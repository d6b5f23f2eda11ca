#pragma once
// Every difference between Debian's LibTorch 1.13 and PyTorch 2.x's libtorch lives here.
// Include this instead of spelling version-specific API at call sites.
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>

#include <torch/torch.h>
#include <torch/version.h>

#include "falcon/core/torch/explicit_attention.h"

#define FALCON_TORCH_VERSION (TORCH_VERSION_MAJOR * 100 + TORCH_VERSION_MINOR)

namespace falcon::torch_shim {

inline constexpr bool kTorch2 = TORCH_VERSION_MAJOR >= 2;

// "1.13.1" / "2.5.0"
inline std::string torch_version() {
  return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
         std::to_string(TORCH_VERSION_PATCH);
}

// Scaled dot-product attention: fused kernel on 2.x, explicit_attention (batched matmuls) on 1.13.
// q (B, H, T, D); k, v (B, Hkv, S, D) with Hkv dividing H (grouped-query attention, HF's repeat_kv
// order); mask: additive, broadcastable to (B, H, T, S), or undefined (then `causal` applies).
// Returns (B, H, T, D).
inline torch::Tensor scaled_dot_product_attention(const torch::Tensor& q, const torch::Tensor& k,
                                                  const torch::Tensor& v, const torch::Tensor& mask, bool causal) {
#if TORCH_VERSION_MAJOR >= 2
  const auto groups = q.size(1) / k.size(1);
  auto repeat_kv = [groups](const torch::Tensor& x) {  // (B, Hkv, S, D) -> (B, Hkv*G, S, D)
    if (groups == 1) return x;
    const auto b = x.size(0), h = x.size(1), s = x.size(2), d = x.size(3);
    return x.unsqueeze(2).expand({b, h, groups, s, d}).reshape({b, h * groups, s, d});
  };
  return at::scaled_dot_product_attention(q, repeat_kv(k), repeat_kv(v),
                                          mask.defined() ? c10::optional<at::Tensor>(mask) : c10::nullopt,
                                          /*dropout_p=*/0.0, /*is_causal=*/causal && !mask.defined());
#else
  return explicit_attention(q, k, v, mask, causal);
#endif
}

}  // namespace falcon::torch_shim

namespace falcon::torch_shim {

// Key of a parameter in Optimizer::state(). LibTorch 1.13 keys the map by the text of the
// TensorImpl address (c10::guts::to_string, i.e. ostream << pointer); later versions key it by
// the address itself. Deduced from the map's key type, so no version number is spelled here.
template <class StateMap>
typename StateMap::key_type optimizer_state_key(const StateMap& /*state*/, const torch::Tensor& param) {
  using Key = typename StateMap::key_type;
  void* impl = param.unsafeGetTensorImpl();
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream text;
    text << impl;
    return text.str();
  } else {
    return static_cast<Key>(impl);
  }
}

// AdamW's state of one parameter, or null before its first step.
inline torch::optim::AdamWParamState* adamw_param_state(torch::optim::AdamW& optimizer, const torch::Tensor& param) {
  auto& state = optimizer.state();
  const auto it = state.find(optimizer_state_key(state, param));
  return it == state.end() ? nullptr : static_cast<torch::optim::AdamWParamState*>(it->second.get());
}

// Installs (replaces) AdamW's state of one parameter.
inline void set_adamw_param_state(torch::optim::AdamW& optimizer, const torch::Tensor& param,
                                  std::unique_ptr<torch::optim::AdamWParamState> param_state) {
  auto& state = optimizer.state();
  state[optimizer_state_key(state, param)] = std::move(param_state);
}

}  // namespace falcon::torch_shim
