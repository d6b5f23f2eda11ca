#pragma once
// Every difference between Debian's LibTorch 1.13 and PyTorch 2.x's libtorch lives here.
// Include this instead of spelling version-specific API at call sites.
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>

#include <ATen/autocast_mode.h>
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
                                                  const torch::Tensor& v_in, const torch::Tensor& mask, bool causal) {
  // q and v may differ in dtype (RoPE tables of another precision than the projections): v follows q.
  const auto v = v_in.scalar_type() == q.scalar_type() ? v_in : v_in.to(q.scalar_type());
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

namespace falcon::torch_shim {

// Mixed precision of a forward pass, as torch.autocast: while the guard lives, matmuls on `device`
// (linear, bmm, ...) run in `dtype` from fp32 weights and activations; weights, gradients and the
// optimizer stay fp32. Leaving the outermost guard drops the cache of cast weights, so the next
// forward sees the optimizer's update. dtype kFloat does nothing. Run backward outside the guard.
class AutocastGuard {
 public:
  AutocastGuard(c10::DeviceType device, at::ScalarType dtype) : device_(device), active_(dtype != at::kFloat) {
    if (!active_) return;
    was_enabled_ = enabled(device_);
    old_dtype_ = get_dtype(device_);
    set_dtype(device_, dtype);
    set_enabled(device_, true);
    at::autocast::increment_nesting();
  }
  ~AutocastGuard() {
    if (!active_) return;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    set_enabled(device_, was_enabled_);
    set_dtype(device_, old_dtype_);
  }
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
#if FALCON_TORCH_VERSION >= 204  // per-device-type functions; the per-device names were deprecated
  static bool enabled(c10::DeviceType d) { return at::autocast::is_autocast_enabled(d); }
  static void set_enabled(c10::DeviceType d, bool on) { at::autocast::set_autocast_enabled(d, on); }
  static at::ScalarType get_dtype(c10::DeviceType d) { return at::autocast::get_autocast_dtype(d); }
  static void set_dtype(c10::DeviceType d, at::ScalarType t) { at::autocast::set_autocast_dtype(d, t); }
#else
  static bool cuda(c10::DeviceType d) { return d == c10::DeviceType::CUDA; }
  static bool enabled(c10::DeviceType d) { return cuda(d) ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled(); }
  static void set_enabled(c10::DeviceType d, bool on) {
    cuda(d) ? at::autocast::set_enabled(on) : at::autocast::set_cpu_enabled(on);
  }
  static at::ScalarType get_dtype(c10::DeviceType d) {
    return cuda(d) ? at::autocast::get_autocast_gpu_dtype() : at::autocast::get_autocast_cpu_dtype();
  }
  static void set_dtype(c10::DeviceType d, at::ScalarType t) {
    cuda(d) ? at::autocast::set_autocast_gpu_dtype(t) : at::autocast::set_autocast_cpu_dtype(t);
  }
#endif
  c10::DeviceType device_;
  bool active_ = false, was_enabled_ = false;
  at::ScalarType old_dtype_ = at::kFloat;
};

}  // namespace falcon::torch_shim
