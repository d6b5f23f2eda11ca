#pragma once
// Attention from plain batched matmuls, for LibTorch 1.13 (no fused kernel; torch_shim's
// scaled_dot_product_attention calls this there). Works on any version, so tests compare it with
// the textbook formula everywhere.
#include <torch/torch.h>

namespace falcon::torch_shim {

// q (B, H, T, D); k, v (B, Hkv, S, D) with Hkv dividing H: query head h reads kv head
// h / (H / Hkv), the order of Hugging Face's repeat_kv. The G = H / Hkv query heads of a kv head
// are stacked into one (T*G, D) matrix, so keys and values are never copied G times; causal
// attention runs in blocks of query positions against the keys each block sees.
// mask: additive, broadcastable to (B, H, T, S), or undefined. causal (without mask): query i sees
// keys 0 .. i + S - T. Returns (B, H, T, D), contiguous.
torch::Tensor explicit_attention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                 const torch::Tensor& mask, bool causal);

// The additive causal bias of explicit_attention, (1, T*G, S): row i*G + g is 0 for keys
// j <= i + S - T and -inf after. Cached per thread for the last (G, T, S, dtype) on the CPU, so the
// layers of one forward build it once.
torch::Tensor causal_bias(std::int64_t groups, std::int64_t queries, std::int64_t keys,
                          const torch::TensorOptions& options);

}  // namespace falcon::torch_shim
