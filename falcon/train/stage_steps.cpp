#include "falcon/train/stage_steps.h"

#include <algorithm>

#include "falcon/core/error.h"
#include "falcon/scoring/sample_outcome.h"
#include "falcon/train/bopo.h"
#include "falcon/train/losses.h"
#include "falcon/train/policy_scoring.h"
#include "falcon/train/preferences.h"

namespace falcon::train {
namespace {

// GRPO with gap rewards (kGrpo) or the FOARL reward (kFoarl): every sample with a non-zero
// advantage (or any, with a KL term) is a sequence; count = those sequences.
MicroBatch prepare_grpo(const std::vector<policy::RolloutItem>& items, const std::vector<std::vector<policy::RolloutSample>>& groups,
                        const StageSpec& stage) {
  MicroBatch batch;
  batch.kind = stage.kind;
  auto& m = batch.metrics;
  for (std::size_t g = 0; g < items.size(); ++g) {
    const auto& item = items[g];
    const auto sense = item.problem->sense();
    // Without a label the group's best feasible objective is the reference.
    double reference = item.reference_objective.value_or(0.0);
    if (!item.reference_objective) {
      bool any = false;
      for (const auto& s : groups[g])
        if (s.outcome.feasible && (!any || (sense == problems::Sense::kMinimize ? s.outcome.objective < reference
                                                                                 : s.outcome.objective > reference))) {
          reference = s.outcome.objective;
          any = true;
        }
    }
    std::vector<double> r;
    for (const auto& s : groups[g]) {
      const ScoredSample score{s.outcome.feasible, s.outcome.objective};
      r.push_back(stage.kind == StageKind::kFoarl
                      ? foarl_reward(s.outcome.parsed, score, s.outcome.violation, reference, sense)
                      : gap_reward(score, reference, sense));
      m.reward_sum += r.back();
      ++m.rewards;
    }
    auto a = group_advantages(r);
    bool used = false;
    for (std::size_t k = 0; k < groups[g].size(); ++k) {
      if (groups[g][k].train_tokens.empty() || (a[k] == 0.0 && stage.kl_coef == 0.0)) continue;
      batch.sequences.push_back({item.prompt, groups[g][k].train_tokens});
      batch.item_of.push_back(g);
      batch.advantages.push_back(a[k]);
      used = true;
    }
    used ? ++m.groups : ++m.skipped_groups;
  }
  batch.count = static_cast<double>(batch.sequences.size());
  return batch;
}

// DPO on (best, worst) of each group; count = pairs.
MicroBatch prepare_dpo(const std::vector<policy::RolloutItem>& items, const std::vector<std::vector<policy::RolloutSample>>& groups) {
  MicroBatch batch;
  batch.kind = StageKind::kDpo;
  auto& m = batch.metrics;
  for (std::size_t g = 0; g < items.size(); ++g) {
    const auto& problem = *items[g].problem;
    int best = -1, worst = -1;
    for (int k = 0; k < static_cast<int>(groups[g].size()); ++k) {
      if (groups[g][k].train_tokens.empty()) continue;
      if (best < 0 || scoring::better(problem, groups[g][k].outcome, groups[g][best].outcome)) best = k;
      if (worst < 0 || scoring::better(problem, groups[g][worst].outcome, groups[g][k].outcome)) worst = k;
    }
    if (best < 0 || !scoring::better(problem, groups[g][best].outcome, groups[g][worst].outcome)) {
      ++m.skipped_groups;
      continue;
    }
    ++m.groups;
    batch.winner.push_back(static_cast<std::int64_t>(batch.sequences.size()));
    batch.sequences.push_back({items[g].prompt, groups[g][best].train_tokens});
    batch.item_of.push_back(g);
    batch.loser.push_back(static_cast<std::int64_t>(batch.sequences.size()));
    batch.sequences.push_back({items[g].prompt, groups[g][worst].train_tokens});
    batch.item_of.push_back(g);
  }
  m.pairs = m.groups;
  batch.count = static_cast<double>(m.pairs);
  return batch;
}

}  // namespace

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

MicroBatch prepare_sft(std::vector<Sequence> sequences) {
  MicroBatch batch;
  batch.metrics.groups = static_cast<std::int64_t>(sequences.size());
  for (const auto& s : sequences) batch.count += static_cast<double>(s.trained_tokens());  // targets, EOS included
  batch.sequences = std::move(sequences);
  return batch;
}

MicroBatch prepare_sampled(const std::vector<policy::RolloutItem>& items, const std::vector<std::vector<policy::RolloutSample>>& groups,
                           const StageSpec& stage) {
  switch (stage.kind) {
    case StageKind::kBopo: return prepare_bopo(items, groups, stage);
    case StageKind::kDpo: return prepare_dpo(items, groups);
    case StageKind::kGrpo:
    case StageKind::kFoarl: return prepare_grpo(items, groups, stage);
    case StageKind::kSft: break;
  }
  throw Error("prepare_sampled: an SFT stage samples nothing (use prepare_sft)");
}

StepMetrics train_micro_batch(model::CausalLm& model, const MicroBatch& batch, const StageSpec& stage, int pad_id,
                              double step_count) {
  StepMetrics m = batch.metrics;
  if (batch.sequences.empty()) return m;
  const bool normalise = batch.kind == StageKind::kBopo && stage.length_normalise;
  auto scored = score_sequences(model, batch.sequences, pad_id, normalise);
  const auto device = scored.sequence_logp.device();
  torch::Tensor loss;  // ()
  switch (batch.kind) {
    case StageKind::kSft: loss = sft_loss(scored.token_logp, scored.mask, step_count); break;
    case StageKind::kBopo: loss = bopo_micro_batch_loss(model, batch, scored, stage, pad_id, step_count); break;
    case StageKind::kGrpo:
    case StageKind::kFoarl: {
      torch::Tensor ref_tokens;  // (S, T)
      if (stage.kl_coef > 0) ref_tokens = score_under_reference(model, batch.sequences, pad_id).token_logp;
      // dr_grpo's constant: the longest text the model can hold, the same for every sequence and step
      const double length_scale = stage.loss_type == "dr_grpo" ? model->config().max_position_embeddings : 0.0;
      loss = grpo_loss(scored.token_logp, scored.mask, torch::tensor(batch.advantages, torch::kDouble).to(device),
                       ref_tokens, stage.kl_coef, step_count, length_scale);
      break;
    }
    case StageKind::kDpo: {
      auto ref = score_under_reference(model, batch.sequences, pad_id).sequence_logp;  // (S,)
      auto w = torch::tensor(batch.winner, torch::kInt64).to(device), l = torch::tensor(batch.loser, torch::kInt64).to(device);
      const auto& lp = scored.sequence_logp;                      // (S,)
      loss = dpo_loss(lp.index_select(0, w), lp.index_select(0, l), ref.index_select(0, w), ref.index_select(0, l),
                      stage.beta, step_count);
      break;
    }
  }
  loss.backward();
  m.loss = loss.item<double>();
  m.tokens = scored.tokens;
  m.positions = scored.positions;
  return m;
}

StepMetrics train_step(model::CausalLm& model, const std::vector<MicroBatch>& micro_batches, const StageSpec& stage,
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
