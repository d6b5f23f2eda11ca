#include "falcon/train/train_step.h"

#include <algorithm>

#include "falcon/train/algorithms.h"

namespace falcon::train {

StepMetrics& StepMetrics::operator+=(const StepMetrics& o) {
  loss += o.loss;
  tokens += o.tokens;
  positions += o.positions;
  groups += o.groups;
  skipped_groups += o.skipped_groups;
  pairs += o.pairs;
  anchored_on_label += o.anchored_on_label;
  reward_sum += o.reward_sum;
  rewards += o.rewards;
  return *this;
}

StepMetrics global_metrics(const StepMetrics& local, const BatchShare& share) {
  // Counts travel as doubles: exact below 2^53.
  const auto d = [](std::int64_t v) { return static_cast<double>(v); };
  const auto g = share.global({local.loss, d(local.tokens), d(local.groups), d(local.skipped_groups), d(local.pairs),
                               d(local.anchored_on_label), local.reward_sum, d(local.rewards), d(local.positions)});
  const auto i = [](double v) { return static_cast<std::int64_t>(v); };
  StepMetrics m;
  m.loss = g[0];
  m.tokens = i(g[1]);
  m.groups = i(g[2]);
  m.skipped_groups = i(g[3]);
  m.pairs = i(g[4]);
  m.anchored_on_label = i(g[5]);
  m.reward_sum = g[6];
  m.rewards = i(g[7]);
  m.positions = i(g[8]);
  return m;
}

StepMetrics train_micro_batch(model::CausalLm& model, const MicroBatch& batch, const recipe::StageSpec& stage, int pad_id,
                              double step_count) {
  StepMetrics m = batch.metrics;
  if (batch.sequences.empty()) return m;
  const auto part = algorithm_steps(batch.kind).loss(model, batch, stage, pad_id, step_count);
  part.loss.backward();
  m.loss = part.loss.item<double>();
  m.tokens = part.tokens;
  m.positions = part.positions;
  return m;
}

StepMetrics train_step(model::CausalLm& model, const std::vector<MicroBatch>& micro_batches, const recipe::StageSpec& stage,
                       int pad_id, const BatchShare& share, std::vector<StepMetrics>* each) {
  double count = 0.0;
  for (const auto& b : micro_batches) count += b.count;
  const double step_count = share.global(count);  // before any early return: a collective
  StepMetrics mine;
  if (each) each->clear();
  for (const auto& b : micro_batches) {
    const auto m = train_micro_batch(model, b, stage, pad_id, std::max(step_count, 1.0));
    mine += m;
    if (each) each->push_back(m);
  }
  return mine;
}

}  // namespace falcon::train
