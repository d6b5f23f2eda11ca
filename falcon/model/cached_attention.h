#pragma once
// Attention of new tokens over a KvCache: the prompt's keys (shared by its N samples) plus each
// sample's own keys. Two implementations with the same result up to float rounding:
//   cached_attention_ops:    batched matmuls; any device and dtype, differentiable.
//   cached_attention_kernel: one pass of CPU loops per (prompt, kv head) that reads the prompt's
//                            keys once for all its samples and query heads; float / double,
//                            inference only. LibTorch 1.13's bmm runs one BLAS call per batch entry,
//                            and decoding has B*N*Hkv tiny entries, so the loops are several times
//                            faster there.
// cached_attention() picks the kernel when it applies.
#include <cstdint>

#include "falcon/core/torch/shim.h"

namespace falcon::model {

struct CachedAttentionInputs {
  torch::Tensor q;                    // (R, T, H, D) rotated queries of the new tokens, R = B*N
  torch::Tensor prefix_k, prefix_v;   // (B, Hkv, P, D) the prompts' keys / values
  torch::Tensor prefix_bias;          // (B, P) additive: 0 for real prompt tokens, -inf for padding
  torch::Tensor sample_k, sample_v;   // (R, Hkv, L, D) each sample's keys / values, L = past + T,
                                      // the new tokens' included; may be views of a larger cache
  std::int64_t samples = 1;           // N: row r is sample r % N of prompt r / N
  torch::Tensor sample_visible;       // optional (R, T) int64 on the CPU: how many of its sample's
                                      // keys new token i of row r sees, for rows that hold different
                                      // numbers of tokens (each >= 0 and <= L)
  torch::Tensor sample_tokens;        // optional (R,) int64 on the CPU: row r's first sample_tokens[r]
                                      // new tokens are real, the rest padding (each 0 .. T)
};
// New token i sees every real prompt key and its sample's keys 0 .. sample_visible[r][i] - 1; without
// sample_visible, 0 .. L - T + i (every row L - T tokens before these). All return (R, T, H, D),
// contiguous. The output of a padding token (sample_tokens) is unspecified: the kernel skips it
// and leaves zeros, the matmuls compute it like a real one.
torch::Tensor cached_attention(const CachedAttentionInputs& in);
torch::Tensor cached_attention_ops(const CachedAttentionInputs& in);
torch::Tensor cached_attention_kernel(const CachedAttentionInputs& in);
// CPU tensors of float or double, and no gradient wanted.
bool cached_attention_kernel_applies(const CachedAttentionInputs& in);

}  // namespace falcon::model
