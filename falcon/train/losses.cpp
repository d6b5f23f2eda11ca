#include "falcon/train/losses.h"

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

torch::Tensor sft_loss(const torch::Tensor& token_logp, const torch::Tensor& mask, double count) {
  auto m = mask.to(token_logp.scalar_type());  // (B, T)
  auto nll = -(token_logp * m).sum();          // ()
  return count > 0 ? nll / count : nll / m.sum().clamp_min(1.0);
}

torch::Tensor dpo_loss(const torch::Tensor& logp_winner, const torch::Tensor& logp_loser,
                       const torch::Tensor& ref_winner, const torch::Tensor& ref_loser, double beta, double count) {
  auto margin = (logp_winner - ref_winner) - (logp_loser - ref_loser);  // (P,)
  auto per_pair = -torch::log_sigmoid(beta * margin);                   // (P,)
  return count > 0 ? per_pair.sum() / count : per_pair.mean();          // ()
}

torch::Tensor grpo_loss(const torch::Tensor& token_logp, const torch::Tensor& mask, const torch::Tensor& advantages,
                        const torch::Tensor& ref_token_logp, double kl_coef, double count, double length_scale) {
  auto m = mask.to(token_logp.scalar_type());                             // (B, T)
  auto ratio = torch::exp(token_logp - token_logp.detach());              // (B, T), value 1
  auto per_token = ratio * advantages.to(token_logp.scalar_type()).unsqueeze(1);  // (B, T)
  if (ref_token_logp.defined() && kl_coef != 0.0) {
    auto d = ref_token_logp - token_logp;                                 // (B, T)
    per_token = per_token - kl_coef * (torch::exp(d) - d - 1.0);
  }
  auto lengths = length_scale > 0 ? torch::full_like(m.select(1, 0), length_scale) : m.sum(-1).clamp_min(1.0);  // (B,)
  auto per_sequence = (per_token * m).sum(-1) / lengths;                  // (B,)
  return count > 0 ? -per_sequence.sum() / count : -per_sequence.mean();  // ()
}

}  // namespace falcon::train
