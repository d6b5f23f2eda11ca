#include "falcon/train/policy_scoring.h"

#include <algorithm>

#include "falcon/train/logprobs.h"

namespace falcon::train {

ScoredBatch score_sequences(model::CausalLm& model, const std::vector<Sequence>& sequences, int pad_id,
                            bool normalise) {
  const auto device = model->lm_head_weight().device();
  auto batch = collate(sequences, pad_id, device);
  // No row has a target before its prompt's last token: the scores cover columns first..T-1.
  std::size_t shortest_prompt = sequences.front().prompt.size();
  for (const auto& s : sequences) shortest_prompt = std::min(shortest_prompt, s.prompt.size());
  const std::int64_t first = static_cast<std::int64_t>(shortest_prompt) - 1;
  const std::int64_t width = batch.input_ids.size(1) - first;
  auto hidden = model->hidden_states(batch.input_ids).narrow(1, first, width);  // (S, T', H)
  auto mask = batch.loss_mask.narrow(1, first, width);                          // (S, T')
  // lm_head (V-wide, the costliest matmul of a small model) and the log-softmax only where a target
  // is trained: prompts, padding and the notes the decoder writes carry none, and in the ranked
  // texts the notes are most of the solution.
  auto trained = mask.reshape({-1}).nonzero().squeeze(1);                                    // (K,)
  auto picked = hidden.reshape({-1, hidden.size(2)}).index_select(0, trained);               // (K, H)
  auto picked_logp = token_logprobs(model->project(picked),                                  // (K, V) ->
                                    batch.targets.narrow(1, first, width).reshape({-1}).index_select(0, trained));  // (K,)
  ScoredBatch out;
  out.token_logp = torch::zeros({mask.numel()}, picked_logp.options())                       // (S * T')
                       .index_copy(0, trained, picked_logp)
                       .view(mask.sizes());                                                  // (S, T')
  out.mask = mask;                                                                           // (S, T')
  out.sequence_logp = sequence_logprobs(out.token_logp, out.mask, normalise);               // (S,)
  out.tokens = batch.tokens;
  out.positions = batch.input_ids.numel();
  return out;
}

ScoredBatch score_under_reference(model::CausalLm& model, const std::vector<Sequence>& sequences, int pad_id,
                                  bool normalise) {
  torch::NoGradGuard no_grad;
  model::AdaptersDisabled reference(model);
  return score_sequences(model, sequences, pad_id, normalise);
}

}  // namespace falcon::train
