#include "falcon/train/sft.h"

#include "falcon/train/policy_scoring.h"

namespace falcon::train {

torch::Tensor sft_loss(const torch::Tensor& token_logp, const torch::Tensor& mask, double count) {
  auto m = mask.to(token_logp.scalar_type());  // (B, T)
  auto nll = -(token_logp * m).sum();          // ()
  return count > 0 ? nll / count : nll / m.sum().clamp_min(1.0);
}

MicroBatch prepare_sft(std::vector<Sequence> sequences) {
  MicroBatch batch;
  batch.kind = recipe::StageKind::kSft;
  batch.metrics.groups = static_cast<std::int64_t>(sequences.size());
  for (const auto& s : sequences) batch.count += static_cast<double>(s.trained_tokens());  // targets, EOS included
  batch.sequences = std::move(sequences);
  return batch;
}

MicroBatchLoss sft_micro_batch_loss(model::CausalLm& model, const MicroBatch& batch, const recipe::StageSpec&,
                                    int pad_id, double step_count) {
  const auto scored = score_sequences(model, batch.sequences, pad_id);
  return {sft_loss(scored.token_logp, scored.mask, step_count), scored.tokens, scored.positions};
}

}  // namespace falcon::train
