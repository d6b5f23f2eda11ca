#pragma once
// Every difference between Debian's LibTorch 1.13 and PyTorch 2.x's libtorch lives here.
// Include this instead of spelling version-specific API at call sites.
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>

#include <torch/torch.h>
#include <torch/version.h>

#define FALCON_TORCH_VERSION (TORCH_VERSION_MAJOR * 100 + TORCH_VERSION_MINOR)

namespace falcon::torch_shim {

inline constexpr bool kTorch2 = TORCH_VERSION_MAJOR >= 2;

// "1.13.1" / "2.5.0"
inline std::string torch_version() {
  return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
         std::to_string(TORCH_VERSION_PATCH);
}

// Scaled dot-product attention: fused kernel on 2.x, the explicit formula on 1.13.
// q, k, v: (B, H, T, D); mask: additive (T, S) or undefined. Returns (B, H, T, D).
inline torch::Tensor scaled_dot_product_attention(const torch::Tensor& q, const torch::Tensor& k,
                                                  const torch::Tensor& v, const torch::Tensor& mask, bool causal) {
#if TORCH_VERSION_MAJOR >= 2
  return at::scaled_dot_product_attention(q, k, v, mask.defined() ? c10::optional<at::Tensor>(mask) : c10::nullopt,
                                          /*dropout_p=*/0.0, /*is_causal=*/causal && !mask.defined());
#else
  const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
  auto scores = torch::matmul(q, k.transpose(-2, -1)) * scale;  // (B, H, T, S)
  if (mask.defined()) {
    scores = scores + mask;
  } else if (causal) {
    const auto t = q.size(-2), s = k.size(-2);
    auto keep = torch::ones({t, s}, q.options().dtype(torch::kBool)).tril(s - t);
    scores = scores.masked_fill(keep.logical_not(), -std::numeric_limits<float>::infinity());
  }
  return torch::matmul(torch::softmax(scores, -1), v);  // (B, H, T, D)
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
