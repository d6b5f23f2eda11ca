#pragma once
// SFT: teacher forcing on the dataset's reference solutions. Its key: recipe/sft_keys.h.
#include <vector>

#include "falcon/recipe/stage.h"
#include "falcon/train/train_step.h"

namespace falcon::train {

// Mean negative log-likelihood over the masked (solution) tokens of the whole batch, or their
// sum / count. token_logp, mask: (B, T).
torch::Tensor sft_loss(const torch::Tensor& token_logp, const torch::Tensor& mask, double count = 0.0);

// A micro-batch of dataset sequences; count = their solution tokens (EOS included).
MicroBatch prepare_sft(std::vector<Sequence> sequences);

// The micro-batch's part of the step's SFT loss (divided by step_count, the step's tokens).
MicroBatchLoss sft_micro_batch_loss(model::CausalLm& model, const MicroBatch& batch, const recipe::StageSpec& stage,
                                    int pad_id, double step_count);

}  // namespace falcon::train
