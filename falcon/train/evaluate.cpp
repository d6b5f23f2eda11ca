#include "falcon/train/evaluate.h"

#include <algorithm>
#include <chrono>

#include "falcon/core/progress.h"
#include "falcon/policy/best_of_n.h"
#include "falcon/policy/output_budget.h"
#include "falcon/scoring/summary.h"

namespace falcon::train {

policy::RolloutItem rollout_item(const TrainExample& example, const text::Tokenizer& tokenizer, int max_positions) {
  policy::RolloutItem item;
  item.problem = example.problem;
  item.instance = example.instance;
  item.prompt = example.prompt;
  item.reference_objective = example.label_objective;
  item.reference_tokens = example.solution;
  // Sized from the instance, as falcon_eval sizes it, within the context.
  item.max_new_tokens =
      std::min(policy::output_budget(*example.problem, *example.instance, tokenizer).max_new_tokens,
               max_positions - static_cast<int>(example.prompt.size()));
  item.key = example.key;
  return item;
}

PolicyEval evaluate_policy(model::CausalLm& model, const text::Tokenizer& tokenizer, const ExampleSet& set,
                           const PolicyEvalOptions& options, const policy::MaskFactory& masks, bool progress,
                           const BatchShare& share) {
  const auto start = std::chrono::steady_clock::now();
  constexpr double kInfeasibleGap = 1.0;  // falcon_eval's default
  scoring::RowSpec row;
  row.name = "stage_eval";
  row.kind = options.greedy ? scoring::MethodKind::kGreedy : scoring::MethodKind::kFixed;
  row.n = options.samples;
  row.temperature = options.greedy ? 1.0 : options.temperature;
  row.repair = options.repair;
  model->eval();
  std::vector<scoring::InstanceResult> results;
  const auto mine = share.slice(static_cast<std::int64_t>(set.examples.size()));
  const auto end = static_cast<std::size_t>(mine.end);
  Progress bar("eval", static_cast<long>(mine.size()), progress);
  for (auto begin = static_cast<std::size_t>(mine.begin); begin < end; begin += options.batch_instances) {
    std::vector<scoring::EvalInstance> instances;
    std::vector<policy::RolloutItem> items;
    for (std::size_t i = begin; i < std::min(end, begin + options.batch_instances); ++i) {
      const TrainExample& example = set.examples[i];
      instances.push_back({example.problem, example.instance, example.instance->name, example.key,
                           example.label_objective});
      items.push_back(rollout_item(example, tokenizer, model->config().max_position_embeddings));
    }
    std::vector<const scoring::EvalInstance*> pointers;
    for (const auto& e : instances) pointers.push_back(&e);
    for (auto& r : policy::best_of_n(model, tokenizer, pointers, items, row, masks, options.seed))
      results.push_back(std::move(r));
    bar.advance(static_cast<long>(items.size()));
  }
  bar.finish();
  model->train();
  // The summary of some of this rank's results, over every rank (a collective).
  auto summarized = [&](const std::vector<scoring::InstanceResult>& some) {
    const auto totals = scoring::RowTotals::from_vector(share.global(scoring::row_totals(some, kInfeasibleGap).to_vector()));
    const auto summary = scoring::summarize(row.name, "", totals, kInfeasibleGap);
    PolicyEval e;
    e.instances = summary.instances;
    e.sample_feasible_raw = summary.sample_feasible_raw;
    e.feasible = summary.feasible;
    e.mean_gap = summary.gap_feasible.value_or(0.0);
    e.gap_all = summary.gap_all.value_or(0.0);
    e.repaired = summary.repaired;
    return e;
  };
  PolicyEval result = summarized(results);
  if (set.dataset_names.size() > 1) {
    for (std::size_t d = 0; d < set.dataset_names.size(); ++d) {
      // A dataset with no instance here (left out of the set) has no figures; every rank skips it alike.
      const bool present = std::any_of(set.examples.begin(), set.examples.end(),
                                       [&](const TrainExample& ex) { return ex.dataset == static_cast<int>(d); });
      if (!present) continue;
      std::vector<scoring::InstanceResult> of_dataset;  // results[i] answers set.examples[mine.begin + i]
      for (std::size_t i = 0; i < results.size(); ++i)
        if (set.examples[static_cast<std::size_t>(mine.begin) + i].dataset == static_cast<int>(d))
          of_dataset.push_back(results[i]);
      result.by_dataset.emplace_back(set.dataset_names[d], summarized(of_dataset));
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace falcon::train
