#pragma once
// A short held-out evaluation of the current policy, run by the trainer after each stage so the
// summary shows what each stage bought: falcon_eval's greedy or fixed-N row (policy::best_of_n),
// with the recipe's grammar mask and repair, scored with falcon_eval's definitions
// (scoring::summarize; docs/evaluation.md) against the dataset's reference labels. Data parallel:
// each rank evaluates its slice of the set (BatchShare) and the row's sums are added across
// ranks, so every rank gets the global figures.
#include <string>
#include <utility>
#include <vector>

#include "falcon/policy/rollout.h"
#include "falcon/train/batch_share.h"
#include "falcon/train/data_source.h"

namespace falcon::train {

struct PolicyEvalOptions {
  int samples = 1;            // N; 1 with greedy = the model's single best guess
  bool greedy = true;
  double temperature = 1.0;
  bool repair = true;
  std::uint64_t seed = 0;
  int batch_instances = 8;
};

struct PolicyEval {
  int instances = 0;
  double sample_feasible_raw = 0.0;  // fraction of all samples feasible with no repair
  double feasible = 0.0;             // fraction of instances with a feasible delivered solution
  double mean_gap = 0.0;             // falcon_eval's gap_feasible: over the feasible instances
  double gap_all = 0.0;              // falcon_eval's gap_all: an instance without a feasible solution counts 100%
  double repaired = 0.0;             // fraction of instances whose delivered solution repair changed
  double seconds = 0.0;
  // The same figures of each dataset's instances (by ExampleSet::dataset_names), when the set
  // holds several; their seconds are 0 (the datasets are decoded together).
  std::vector<std::pair<std::string, PolicyEval>> by_dataset;
};

// Samples do not depend on the slicing (per-instance sample streams), so the figures are those
// of one process up to floating-point rounding.
PolicyEval evaluate_policy(model::CausalLm& model, const text::Tokenizer& tokenizer, const ExampleSet& set,
                           const PolicyEvalOptions& options, const policy::MaskFactory& masks, bool progress,
                           const BatchShare& share = {});

// The RolloutItem of a training/eval example: max_new_tokens from the instance
// (policy::output_budget, never the label), at most what the context leaves after the prompt
// (max_positions: the model's max_position_embeddings).
policy::RolloutItem rollout_item(const TrainExample& example, const text::Tokenizer& tokenizer, int max_positions);

}  // namespace falcon::train
