#pragma once
// One optimizer step of any stage, in two phases. Each algorithm's prepare_* (sft.h, bopo.h, grpo.h,
// dpo.h; the registry: algorithms.h) turns a micro-batch (SFT sequences, or a sampling stage's
// scored rollouts) into what its loss needs, without the model; train_step
// then sums the micro-batches' loss counts over the whole step (every micro-batch of grad_accum,
// every rank) and runs each micro-batch's forward + backward with its loss divided by that sum.
// Each loss is thus one mean over the optimizer step's groups, tokens, sequences or pairs, not a
// mean of per-micro-batch means, and the effective learning rate does not move with how many
// groups a micro-batch happened to skip. Gradients accumulate into the model's .grad; the
// trainer sums them over ranks, clips, steps and zeroes.
//
// Data parallel: the micro-batches are this rank's slices of the global ones, and the counts are
// summed over the ranks (`share`, a collective every rank calls once per step, also with empty
// slices), so each rank's loss is its exact part of the one-process loss of the global step.
#include <cstdint>
#include <vector>

#include "falcon/model/transformer.h"
#include "falcon/recipe/stage.h"
#include "falcon/train/batch_share.h"
#include "falcon/train/examples.h"

namespace falcon::train {

// What a step did on this rank, as sums and counts, so global_metrics gives the global batch's.
struct StepMetrics {
  double loss = 0.0;                  // this rank's part of the step loss (the parts add up to it)
  std::int64_t tokens = 0;            // tokens through the teacher-forced passes
  std::int64_t positions = 0;         // their B x T, padding included
  std::int64_t groups = 0;            // instances (SFT: sequences) that contributed
  std::int64_t skipped_groups = 0;    // degenerate: fewer than two distinct feasible objectives, ...
  std::int64_t pairs = 0;
  std::int64_t anchored_on_label = 0; // groups whose y* is the reference label
  double reward_sum = 0.0;            // GRPO / FOARL: over every sample
  std::int64_t rewards = 0;           // samples rewarded
  double mean_reward() const { return rewards > 0 ? reward_sum / rewards : 0.0; }
  StepMetrics& operator+=(const StepMetrics& other);
};

// Every field summed over the ranks (a collective).
StepMetrics global_metrics(const StepMetrics& local, const BatchShare& share);

// One micro-batch, ready for its forward + backward.
struct MicroBatch {
  recipe::StageKind kind = recipe::StageKind::kSft;
  std::vector<Sequence> sequences;          // each scored once
  std::vector<std::size_t> item_of;         // sampling stages: the rollout item each sequence answers
  // BOPO and DPO: pair p prefers sequences[winner[p]] to sequences[loser[p]].
  std::vector<std::int64_t> winner, loser;
  std::vector<double> coefficients;         // BOPO: w_i / (K' - 1) of each pair
  std::vector<std::int64_t> best;           // BOPO: y* of each used group (the optional SFT term)
  std::vector<double> advantages;           // GRPO / FOARL: of each sequence
  // What the stage's loss is a mean over, counted in this micro-batch: SFT solution tokens (EOS
  // included), BOPO used groups, GRPO / FOARL sequences, DPO pairs.
  double count = 0.0;
  StepMetrics metrics;                      // the counts; loss and tokens come with the backward
  int dataset = -1;                         // the data.config all its rows come from; -1: they mix
};

// A micro-batch's part of its step's loss, and what went through the model for it.
struct MicroBatchLoss {
  torch::Tensor loss;  // ()
  std::int64_t tokens = 0;
  std::int64_t positions = 0;
};

// The forward + backward of one micro-batch, its loss divided by `step_count` (> 0: the count
// summed over the whole step). Returns its metrics with its part of the loss.
StepMetrics train_micro_batch(model::CausalLm& model, const MicroBatch& batch, const recipe::StageSpec& stage, int pad_id,
                              double step_count);

// One optimizer step's worth of this rank's micro-batches: the counts summed over them and over
// the ranks, then train_micro_batch on each. Returns this rank's summed metrics; `each`, when
// given, gets every micro-batch's own (their losses add up to the step's).
StepMetrics train_step(model::CausalLm& model, const std::vector<MicroBatch>& micro_batches, const recipe::StageSpec& stage,
                       int pad_id, const BatchShare& share = {}, std::vector<StepMetrics>* each = nullptr);

}  // namespace falcon::train
