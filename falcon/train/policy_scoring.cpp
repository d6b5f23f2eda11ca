#include "falcon/train/policy_scoring.h"

#include "falcon/train/losses.h"

namespace falcon::train {

ScoredBatch score_sequences(model::CausalLm& model, const std::vector<Sequence>& sequences, int pad_id,
                            bool normalise) {
  const auto device = model->lm_head_weight().device();
  auto batch = collate(sequences, pad_id, device);
  auto logits = model->forward(batch.input_ids);  // (S, T, V)
  ScoredBatch out;
  out.token_logp = token_logprobs(logits, batch.targets);                             // (S, T)
  out.mask = batch.loss_mask;                                                         // (S, T)
  out.sequence_logp = sequence_logprobs(out.token_logp, out.mask, normalise);        // (S,)
  out.tokens = batch.tokens;
  return out;
}

}  // namespace falcon::train
