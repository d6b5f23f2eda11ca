#pragma once
// log pi(solution | prompt) of many sequences in one teacher-forced forward pass.
#include <vector>

#include "falcon/model/transformer.h"
#include "falcon/train/examples.h"

namespace falcon::train {

struct ScoredBatch {
  torch::Tensor sequence_logp;  // (S,) sum (or mean, when normalised) over solution tokens
  torch::Tensor token_logp;     // (S, T) per target position
  torch::Tensor mask;           // (S, T) 1 on solution targets
  std::int64_t tokens = 0;      // real input tokens (for throughput)
};

// Gradients flow unless called under torch::NoGradGuard.
ScoredBatch score_sequences(model::CausalLm& model, const std::vector<Sequence>& sequences, int pad_id,
                            bool normalise = false);

}  // namespace falcon::train
