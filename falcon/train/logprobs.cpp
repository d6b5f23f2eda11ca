#include "falcon/train/logprobs.h"

namespace falcon::train {

torch::Tensor token_logprobs(const torch::Tensor& logits, const torch::Tensor& targets) {
  // Half-precision logits are promoted to fp32; fp32 and fp64 stay as they are.
  const bool half = logits.scalar_type() == torch::kBFloat16 || logits.scalar_type() == torch::kHalf;
  auto logp = torch::log_softmax(half ? logits.to(torch::kFloat) : logits, -1);  // (B, T, V)
  return logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1);     // (B, T)
}

torch::Tensor sequence_logprobs(const torch::Tensor& token_logp, const torch::Tensor& mask, bool normalise) {
  auto m = mask.to(token_logp.scalar_type());  // (B, T)
  auto sum = (token_logp * m).sum(-1);         // (B,)
  return normalise ? sum / m.sum(-1).clamp_min(1.0) : sum;
}

}  // namespace falcon::train
