#include "falcon/policy/best_of_n.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "falcon/core/error.h"
#include "falcon/eval/adaptive.h"
#include "falcon/eval/consistency.h"
#include "falcon/eval/matching.h"

namespace falcon::policy {
namespace {

using Clock = std::chrono::steady_clock;

// Everything drawn for one instance so far.
struct InstanceDraws {
  explicit InstanceDraws(eval::Match match) : classes(match) {}
  std::vector<eval::SampleOutcome> outcomes;
  std::vector<std::string> texts;  // what the model wrote, per sample
  std::vector<eval::Draw> draws;
  std::vector<int> match_classes;
  eval::MatchClasses classes;
  eval::TimeSplit seconds;
  eval::AdaptiveDecision decision;
  bool done = false;
  std::optional<eval::SampleOutcome> greedy;  // with_greedy: the argmax decode, a candidate beside the samples
  std::string greedy_text;
};

// Samples per instance in the next round, given `drawn` so far.
int round_samples(const eval::RowSpec& row, int drawn) {
  const int left = row.budget() - drawn;
  switch (row.kind) {
    case eval::MethodKind::kGreedy: return 1;
    case eval::MethodKind::kFixed: return row.round_size > 0 ? std::min(row.round_size, left) : left;
    case eval::MethodKind::kAdaptive: return std::min(drawn == 0 ? row.rule.n_min : row.round_size, left);
    case eval::MethodKind::kSolver: break;
  }
  throw Error("best_of_n: a solver row has no samples");
}

eval::InstanceResult deliver(const eval::EvalInstance& e, const eval::RowSpec& row, const InstanceDraws& d) {
  const auto& problem = *e.problem;
  const int used = row.kind == eval::MethodKind::kAdaptive ? d.decision.samples : static_cast<int>(d.draws.size());
  const int best = row.kind == eval::MethodKind::kAdaptive ? d.decision.best : eval::best_draw(d.draws, used, problem.sense());
  bool greedy_wins = false;
  if (d.greedy) {
    const eval::Draw greedy{d.greedy->feasible, d.greedy->objective, -1};
    greedy_wins = eval::better_draw(greedy, d.draws.at(best), problem.sense());
  }
  const eval::SampleOutcome& delivered = greedy_wins ? *d.greedy : d.outcomes.at(best);
  eval::InstanceResult r;
  r.row = row.name;
  r.instance = e.name;
  r.key = e.key;
  r.n = e.instance->size();
  r.feasible_raw = delivered.feasible_raw;
  eval::set_objective(r, problem.sense(), delivered.feasible, delivered.objective, e.reference);
  r.repaired = delivered.repaired;
  r.repair_distance = delivered.repair_distance;
  r.before_repair = delivered.before_repair;
  r.samples = used;
  r.samples_drawn = static_cast<int>(d.draws.size());
  for (int k = 0; k < used; ++k) r.samples_feasible_raw += d.outcomes[k].feasible_raw;
  r.consistency = eval::consistency(std::vector<int>(d.match_classes.begin(), d.match_classes.begin() + used));
  if (row.kind == eval::MethodKind::kAdaptive) {
    r.confidence = d.decision.confidence;
    r.stop = eval::to_string(d.decision.stop);
  }
  r.seconds = d.seconds;
  r.solution = problem.format(*e.instance, delivered.solution);
  r.text = greedy_wins ? d.greedy_text : d.texts.at(best);
  return r;
}

// One rollout call over the active instances; its time is shared equally among them (batched work).
std::vector<std::vector<RolloutSample>> timed_rollout(model::CausalLm& model, const text::Tokenizer& tokenizer,
                                                      const std::vector<RolloutItem>& items,
                                                      const std::vector<std::size_t>& active,
                                                      const RolloutOptions& options,
                                                      const MaskFactory& masks, std::vector<InstanceDraws>& state) {
  std::vector<RolloutItem> batch;
  for (auto i : active) batch.push_back(items[i]);
  sampling::GenerateStats stats;
  const auto start = Clock::now();
  auto groups = rollout(model, tokenizer, batch, options, masks, &stats);
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  const double share = 1.0 / static_cast<double>(active.size());
  for (std::size_t j = 0; j < active.size(); ++j) {
    auto& d = state[active[j]];
    d.seconds.total += wall * share;
    d.seconds.model += stats.model_seconds * share;
    d.seconds.mask += stats.mask_seconds * share;
    d.seconds.sample += stats.sample_seconds * share;
    for (const auto& sample : groups[j]) d.seconds.repair += sample.outcome.repair_seconds;
  }
  return groups;
}

}  // namespace

std::vector<eval::InstanceResult> best_of_n(model::CausalLm& model, const text::Tokenizer& tokenizer,
                                      const std::vector<const eval::EvalInstance*>& instances,
                                      const std::vector<RolloutItem>& items, const eval::RowSpec& row,
                                      const MaskFactory& masks, std::uint64_t seed) {
  if (instances.size() != items.size()) throw Error("best_of_n: one rollout item per instance");
  if (!row.uses_model()) throw Error("best_of_n: row '" + row.name + "' is a solver row");
  std::vector<InstanceDraws> state(instances.size(), InstanceDraws(row.match));
  RolloutOptions common;
  common.sampling = {row.temperature, row.top_k, row.top_p};
  common.repair = row.repair;
  common.seed = seed;
  if (row.with_greedy && row.kind != eval::MethodKind::kGreedy) {
    RolloutOptions options = common;
    options.samples_per_item = 1;
    options.greedy = true;
    std::vector<std::size_t> all(state.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    const auto groups = timed_rollout(model, tokenizer, items, all, options, masks, state);
    for (std::size_t i = 0; i < state.size(); ++i) {
      state[i].greedy = groups[i].at(0).outcome;
      state[i].greedy_text = groups[i].at(0).text;
    }
  }
  int drawn = 0;  // per instance, the same for every instance still sampling (lockstep rounds)
  for (;;) {
    std::vector<std::size_t> active;
    for (std::size_t i = 0; i < state.size(); ++i)
      if (!state[i].done) active.push_back(i);
    if (active.empty()) break;
    const int k = round_samples(row, drawn);
    RolloutOptions options = common;
    options.samples_per_item = k;
    options.greedy = row.kind == eval::MethodKind::kGreedy;
    options.first_sample = static_cast<std::uint64_t>(drawn);
    options.key_stride = static_cast<std::uint64_t>(row.budget());
    const auto groups = timed_rollout(model, tokenizer, items, active, options, masks, state);
    for (std::size_t j = 0; j < active.size(); ++j) {
      auto& d = state[active[j]];
      for (const auto& sample : groups[j]) {
        const int cls = d.classes.add(sample.outcome);
        d.match_classes.push_back(cls);
        d.draws.push_back({sample.outcome.feasible, sample.outcome.objective, cls});
        d.outcomes.push_back(sample.outcome);
        d.texts.push_back(sample.text);
      }
    }
    drawn += k;
    for (auto i : active) {
      auto& d = state[i];
      if (row.kind == eval::MethodKind::kAdaptive) {
        d.decision = eval::adaptive_decision(d.draws, row.rule, instances[i]->problem->sense());
        d.done = d.decision.stop != eval::StopReason::kNone;
      } else {
        d.done = drawn >= row.budget();
      }
    }
  }
  std::vector<eval::InstanceResult> out;
  for (std::size_t i = 0; i < state.size(); ++i) out.push_back(deliver(*instances[i], row, state[i]));
  return out;
}

}  // namespace falcon::policy
