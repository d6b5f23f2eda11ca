#include "falcon/policy/best_of_n.h"

#include <chrono>

#include "falcon/core/error.h"
#include "falcon/policy/symmetric_copies.h"
#include "falcon/scoring/instance_draws.h"

namespace falcon::policy {
namespace {

using Clock = std::chrono::steady_clock;

// One rollout call over `batch`, whose item b belongs to instance owners[b]; its time is shared
// equally among the items (batched work).
std::vector<std::vector<RolloutSample>> timed_rollout(model::CausalLm& model, const text::Tokenizer& tokenizer,
                                                      const std::vector<RolloutItem>& batch,
                                                      const std::vector<std::size_t>& owners,
                                                      const RolloutOptions& options,
                                                      const MaskFactory& masks, std::vector<scoring::InstanceDraws>& state) {
  sampling::GenerateStats stats;
  const auto start = Clock::now();
  auto groups = rollout(model, tokenizer, batch, options, masks, &stats);
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  const double share = 1.0 / static_cast<double>(batch.size());
  for (std::size_t b = 0; b < batch.size(); ++b) {
    auto& d = state[owners[b]];
    d.seconds.total += wall * share;
    d.seconds.model += stats.model_seconds * share;
    d.seconds.mask += stats.mask_seconds * share;
    d.seconds.sample += stats.sample_seconds * share;
    for (const auto& sample : groups[b]) d.seconds.repair += sample.outcome.repair_seconds;
  }
  return groups;
}

std::vector<std::vector<RolloutSample>> plain_rollout(model::CausalLm& model, const text::Tokenizer& tokenizer,
                                                      const std::vector<RolloutItem>& items,
                                                      const std::vector<std::size_t>& active,
                                                      const RolloutOptions& options, const MaskFactory& masks,
                                                      std::vector<scoring::InstanceDraws>& state) {
  std::vector<RolloutItem> batch;
  for (auto i : active) batch.push_back(items[i]);
  return timed_rollout(model, tokenizer, batch, active, options, masks, state);
}

// The same samples, each of its own symmetric copy (symmetric_copies.h), carried back and grouped
// per active instance.
std::vector<std::vector<RolloutSample>> copies_rollout(model::CausalLm& model, const text::Tokenizer& tokenizer,
                                                       const std::vector<RolloutItem>& items,
                                                       const std::vector<std::size_t>& active,
                                                       const RolloutOptions& options, const MaskFactory& masks,
                                                       std::vector<scoring::InstanceDraws>& state) {
  const int max_positions = static_cast<int>(model->config().max_position_embeddings);
  std::vector<CopiedItem> copied;
  std::vector<RolloutItem> batch;
  std::vector<std::size_t> owners;
  for (auto i : active)
    for (auto& c : copied_items(items[i], static_cast<int>(options.first_sample), options.samples_per_item,
                                options.key_stride, options.seed, tokenizer, max_positions)) {
      batch.push_back(c.item);
      owners.push_back(i);
      copied.push_back(std::move(c));
    }
  RolloutOptions one_each = options;
  one_each.samples_per_item = 1;
  one_each.first_sample = 0;
  one_each.key_stride = 1;
  const auto groups = timed_rollout(model, tokenizer, batch, owners, one_each, masks, state);
  std::vector<std::vector<RolloutSample>> out(active.size());
  for (std::size_t b = 0; b < batch.size(); ++b)
    out[b / static_cast<std::size_t>(options.samples_per_item)].push_back(
        carried_back(groups[b].at(0), copied[b], items[owners[b]]));
  return out;
}

}  // namespace

std::vector<scoring::InstanceResult> best_of_n(model::CausalLm& model, const text::Tokenizer& tokenizer,
                                      const std::vector<const scoring::EvalInstance*>& instances,
                                      const std::vector<RolloutItem>& items, const scoring::RowSpec& row,
                                      const MaskFactory& masks, std::uint64_t seed) {
  if (instances.size() != items.size()) throw Error("best_of_n: one rollout item per instance");
  if (!row.uses_model()) throw Error("best_of_n: row '" + row.name + "' is a solver row");
  std::vector<scoring::InstanceDraws> state(instances.size(), scoring::InstanceDraws(row.match));
  RolloutOptions common;
  common.sampling = {row.temperature, row.top_k, row.top_p};
  common.repair = row.repair;
  common.seed = seed;
  if (row.with_greedy && row.kind != scoring::MethodKind::kGreedy) {
    RolloutOptions options = common;
    options.samples_per_item = 1;
    options.greedy = true;
    std::vector<std::size_t> all(state.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    const auto groups = plain_rollout(model, tokenizer, items, all, options, masks, state);
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
    const int k = scoring::round_samples(row, drawn);
    RolloutOptions options = common;
    options.samples_per_item = k;
    options.greedy = row.kind == scoring::MethodKind::kGreedy || (row.symmetric_copies && row.temperature == 0);
    options.first_sample = static_cast<std::uint64_t>(drawn);
    options.key_stride = static_cast<std::uint64_t>(row.budget());
    const auto groups = row.symmetric_copies ? copies_rollout(model, tokenizer, items, active, options, masks, state)
                                             : plain_rollout(model, tokenizer, items, active, options, masks, state);
    for (std::size_t j = 0; j < active.size(); ++j) {
      auto& d = state[active[j]];
      for (const auto& sample : groups[j]) d.add(sample.outcome, sample.text);
    }
    drawn += k;
    for (auto i : active) state[i].settle(row, drawn, instances[i]->problem->sense());
  }
  std::vector<scoring::InstanceResult> out;
  for (std::size_t i = 0; i < state.size(); ++i) out.push_back(scoring::deliver(*instances[i], row, state[i]));
  return out;
}

}  // namespace falcon::policy
