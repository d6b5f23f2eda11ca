#pragma once
// Every difference between Debian's LibTorch 1.13 and PyTorch 2.x's libtorch lives here.
// Include this instead of spelling version-specific API at call sites.
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
