#include "falcon/train/policy_scoring.h"

#include <algorithm>

#include "falcon/train/losses.h"

namespace falcon::train {

ScoredBatch score_sequences(model::CausalLm& model, const std::vector<Sequence>& sequences, int pad_id,
                            bool normalise) {
  const auto device = model->lm_head_weight().device();
  auto batch = collate(sequences, pad_id, device);
  // No row has a target before its prompt's last token, so lm_head (V-wide, the costliest matmul
  // of a small model) skips every position before the shortest prompt's end: columns first..T-1.
  std::size_t shortest_prompt = sequences.front().prompt.size();
  for (const auto& s : sequences) shortest_prompt = std::min(shortest_prompt, s.prompt.size());
  const std::int64_t first = static_cast<std::int64_t>(shortest_prompt) - 1;
  const std::int64_t width = batch.input_ids.size(1) - first;
  auto hidden = model->hidden_states(batch.input_ids).narrow(1, first, width);  // (S, T', H)
  auto logits = model->project(hidden);                                         // (S, T', V)
  ScoredBatch out;
  out.token_logp = token_logprobs(logits, batch.targets.narrow(1, first, width));  // (S, T')
  out.mask = batch.loss_mask.narrow(1, first, width);                               // (S, T')
  out.sequence_logp = sequence_logprobs(out.token_logp, out.mask, normalise);        // (S,)
  out.tokens = batch.tokens;
  return out;
}

ScoredBatch score_under_reference(model::CausalLm& model, const std::vector<Sequence>& sequences, int pad_id,
                                  bool normalise) {
  torch::NoGradGuard no_grad;
  model::AdaptersDisabled reference(model);
  return score_sequences(model, sequences, pad_id, normalise);
}

}  // namespace falcon::train
