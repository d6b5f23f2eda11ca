#pragma once
// The samples a row has drawn for one instance, and what the row delivers from them: shared by
// the model rows (policy/best_of_n.h) and the model-free heuristic sampler (heuristic_sampler.h),
// so both choose, stop and report by exactly the same rules.
//   fixed:    the best of the row's n samples;
//   adaptive: Algorithm 2 (adaptive.h) after every sample, in rounds of round_samples();
//   greedy:   the one sample;
//   with_greedy: a greedy decode beside the samples, delivered where strictly better.
#include <optional>
#include <string>
#include <vector>

#include "falcon/scoring/adaptive.h"
#include "falcon/scoring/eval_instances.h"
#include "falcon/scoring/eval_spec.h"
#include "falcon/scoring/instance_result.h"
#include "falcon/scoring/matching.h"
#include "falcon/scoring/sample_outcome.h"

namespace falcon::scoring {

struct InstanceDraws {
  explicit InstanceDraws(Match match) : classes(match) {}
  std::vector<SampleOutcome> outcomes;
  std::vector<std::string> texts;  // what the policy wrote, per sample
  std::vector<Draw> draws;
  std::vector<int> match_classes;
  MatchClasses classes;
  TimeSplit seconds;
  AdaptiveDecision decision;
  bool done = false;
  std::optional<SampleOutcome> greedy;  // with_greedy: the argmax decode, a candidate beside the samples
  std::string greedy_text;

  void add(const SampleOutcome& outcome, std::string text);
  // After a round that brought the samples per instance to `drawn`: whether the row has decided.
  void settle(const RowSpec& row, int drawn, problems::Sense sense);
};

// Samples per instance in the next round, given `drawn` so far: greedy 1; fixed all n at once (or
// round_size); adaptive n_min first, then round_size; never past the budget.
int round_samples(const RowSpec& row, int drawn);

InstanceResult deliver(const EvalInstance& e, const RowSpec& row, const InstanceDraws& d);

}  // namespace falcon::scoring
