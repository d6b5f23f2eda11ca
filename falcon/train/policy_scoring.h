#pragma once
// log pi(solution | prompt) of many sequences in one teacher-forced forward pass.
#include <vector>

#include "falcon/model/transformer.h"
#include "falcon/train/examples.h"

namespace falcon::train {

struct ScoredBatch {
  torch::Tensor sequence_logp;  // (S,) sum (or mean, when normalised) over solution tokens
  // Per target position from the shortest prompt's last token on (T' = T - that position): the
  // positions before it carry no target in any row.
  torch::Tensor token_logp;     // (S, T')
  torch::Tensor mask;           // (S, T') 1 on solution targets
  std::int64_t tokens = 0;      // real input tokens (for throughput)
  std::int64_t positions = 0;   // B x T through the model, padding included
};

// Gradients flow unless called under torch::NoGradGuard.
ScoredBatch score_sequences(model::CausalLm& model, const std::vector<Sequence>& sequences, int pad_id,
                            bool normalise = false);

// The same under the reference policy (the model with its adapters disabled), without gradients:
// the anchor of DPO, of BOPO with reference: adapters and of GRPO's KL term.
ScoredBatch score_under_reference(model::CausalLm& model, const std::vector<Sequence>& sequences, int pad_id,
                                  bool normalise = false);

}  // namespace falcon::train
