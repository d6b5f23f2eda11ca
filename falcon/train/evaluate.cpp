#include "falcon/train/evaluate.h"

#include <chrono>

#include "falcon/core/progress.h"

namespace falcon::train {

RolloutItem rollout_item(const TrainExample& example) {
  RolloutItem item;
  item.problem = example.problem;
  item.instance = example.instance;
  item.prompt = example.prompt;
  item.reference_objective = example.label_objective;
  item.reference_tokens = example.solution;
  item.max_new_tokens = 2 * static_cast<int>(example.solution.size()) + 16;
  item.key = example.key;
  return item;
}

PolicyEval evaluate_policy(model::CausalLm& model, const text::Tokenizer& tokenizer, const ExampleSet& set,
                           const PolicyEvalOptions& options, const MaskFactory& masks, bool progress,
                           const BatchShare& share) {
  const auto start = std::chrono::steady_clock::now();
  model->eval();
  RolloutOptions ro;
  ro.samples_per_item = options.samples;
  ro.greedy = options.greedy;
  ro.sampling.temperature = options.greedy ? 1.0 : options.temperature;
  ro.repair = options.repair;
  ro.seed = options.seed;
  PolicyEval result;
  sampling::GenerateStats stats;
  std::int64_t samples = 0, raw_feasible = 0, feasible = 0, repaired = 0;
  double gap_sum = 0.0;
  const auto mine = share.slice(static_cast<std::int64_t>(set.examples.size()));
  const auto end = static_cast<std::size_t>(mine.end);
  Progress bar("eval", static_cast<long>(mine.size()), progress);
  for (auto begin = static_cast<std::size_t>(mine.begin); begin < end; begin += options.batch_instances) {
    std::vector<RolloutItem> items;
    for (std::size_t i = begin; i < std::min(end, begin + options.batch_instances); ++i)
      items.push_back(rollout_item(set.examples[i]));
    auto groups = rollout(model, tokenizer, items, ro, masks, &stats);
    for (std::size_t g = 0; g < items.size(); ++g) {
      const eval::SampleOutcome* best = nullptr;
      for (const auto& s : groups[g]) {
        ++samples;
        raw_feasible += s.outcome.feasible_raw;
        if (best == nullptr || eval::better(*items[g].problem, s.outcome, *best)) best = &s.outcome;
      }
      if (best != nullptr && best->feasible) {
        ++feasible;
        repaired += best->repaired;
        gap_sum += problems::gap(items[g].problem->sense(), best->objective, *items[g].reference_objective);
      }
    }
    bar.advance(static_cast<long>(items.size()));
  }
  bar.finish();
  model->train();
  const double local_rate = stats.model_seconds > 0 ? stats.generated_tokens / stats.model_seconds : 0.0;
  const auto sums = share.global({static_cast<double>(samples), static_cast<double>(raw_feasible),
                                  static_cast<double>(feasible), static_cast<double>(repaired), gap_sum, local_rate});
  samples = static_cast<std::int64_t>(sums[0]);
  raw_feasible = static_cast<std::int64_t>(sums[1]);
  feasible = static_cast<std::int64_t>(sums[2]);
  repaired = static_cast<std::int64_t>(sums[3]);
  gap_sum = sums[4];
  result.instances = static_cast<int>(set.examples.size());
  result.sample_feasible_raw = samples > 0 ? static_cast<double>(raw_feasible) / samples : 0.0;
  result.feasible = result.instances > 0 ? static_cast<double>(feasible) / result.instances : 0.0;
  result.mean_gap = feasible > 0 ? gap_sum / feasible : 0.0;
  result.repaired = feasible > 0 ? static_cast<double>(repaired) / feasible : 0.0;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.tokens_per_second = sums[5];
  return result;
}

}  // namespace falcon::train
