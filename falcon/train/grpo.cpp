#include "falcon/train/grpo.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "falcon/train/policy_scoring.h"

namespace falcon::train {
namespace {

// The group's reference objective: its label's, or without one its best feasible sample's.
double reference_objective(const policy::RolloutItem& item, const std::vector<policy::RolloutSample>& group) {
  if (item.reference_objective) return *item.reference_objective;
  const bool minimize = item.problem->sense() == problems::Sense::kMinimize;
  double reference = 0.0;
  bool any = false;
  for (const auto& s : group)
    if (s.outcome.feasible &&
        (!any || (minimize ? s.outcome.objective < reference : s.outcome.objective > reference))) {
      reference = s.outcome.objective;
      any = true;
    }
  return reference;
}

}  // namespace

std::vector<double> group_advantages(const std::vector<double>& rewards, double eps) {
  if (rewards.empty()) return {};
  const double n = static_cast<double>(rewards.size());
  const double mean = std::accumulate(rewards.begin(), rewards.end(), 0.0) / n;
  double var = 0.0;
  for (double r : rewards) var += (r - mean) * (r - mean);
  const double sd = std::sqrt(var / n);
  std::vector<double> out;
  out.reserve(rewards.size());
  for (double r : rewards) out.push_back((r - mean) / (sd + eps));
  return out;
}

double gap_reward(const ScoredSample& sample, double reference_objective, problems::Sense sense,
                  double infeasible_reward) {
  if (!sample.feasible) return infeasible_reward;
  const double g = problems::gap(sense, sample.objective, reference_objective);
  return std::isfinite(g) ? -g : infeasible_reward;
}

double foarl_reward(bool parsed, const ScoredSample& sample, double violation, double reference_objective,
                    problems::Sense sense) {
  if (!parsed) return 0.0;
  if (!sample.feasible) return 1.0 / (1.0 + std::max(violation, 0.0));
  const double g = problems::gap(sense, sample.objective, reference_objective);
  return 1.0 + (std::isfinite(g) ? 1.0 / (1.0 + std::max(g, 0.0)) : 0.0);
}

torch::Tensor grpo_loss(const torch::Tensor& token_logp, const torch::Tensor& mask, const torch::Tensor& advantages,
                        const torch::Tensor& ref_token_logp, double kl_coef, double count, double length_scale) {
  auto m = mask.to(token_logp.scalar_type());                             // (B, T)
  auto ratio = torch::exp(token_logp - token_logp.detach());              // (B, T), value 1
  auto per_token = ratio * advantages.to(token_logp.scalar_type()).unsqueeze(1);  // (B, T)
  if (ref_token_logp.defined() && kl_coef != 0.0) {
    auto d = ref_token_logp - token_logp;                                 // (B, T)
    per_token = per_token - kl_coef * (torch::exp(d) - d - 1.0);
  }
  auto lengths = length_scale > 0 ? torch::full_like(m.select(1, 0), length_scale) : m.sum(-1).clamp_min(1.0);  // (B,)
  auto per_sequence = (per_token * m).sum(-1) / lengths;                  // (B,)
  return count > 0 ? -per_sequence.sum() / count : -per_sequence.mean();  // ()
}

MicroBatch prepare_grpo(const std::vector<policy::RolloutItem>& items,
                        const std::vector<std::vector<policy::RolloutSample>>& groups, const recipe::StageSpec& stage) {
  MicroBatch batch;
  batch.kind = stage.kind;
  auto& m = batch.metrics;
  const double kl_coef = stage.keys_of<recipe::GrpoKeys>().kl_coef;
  for (std::size_t g = 0; g < items.size(); ++g) {
    const auto& item = items[g];
    const auto sense = item.problem->sense();
    const double reference = reference_objective(item, groups[g]);
    std::vector<double> r;
    for (const auto& s : groups[g]) {
      const ScoredSample score{s.outcome.feasible, s.outcome.objective};
      r.push_back(stage.kind == recipe::StageKind::kFoarl
                      ? foarl_reward(s.outcome.parsed, score, s.outcome.violation, reference, sense)
                      : gap_reward(score, reference, sense));
      m.reward_sum += r.back();
      ++m.rewards;
    }
    const auto a = group_advantages(r);
    bool used = false;
    for (std::size_t k = 0; k < groups[g].size(); ++k) {
      if (groups[g][k].train_tokens.empty() || (a[k] == 0.0 && kl_coef == 0.0)) continue;
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

MicroBatchLoss grpo_micro_batch_loss(model::CausalLm& model, const MicroBatch& batch, const recipe::StageSpec& stage,
                                     int pad_id, double step_count) {
  const auto& keys = stage.keys_of<recipe::GrpoKeys>();
  const auto scored = score_sequences(model, batch.sequences, pad_id);
  torch::Tensor ref_tokens;  // (S, T)
  if (keys.kl_coef > 0) ref_tokens = score_under_reference(model, batch.sequences, pad_id).token_logp;
  // dr_grpo's constant: the longest text the model can hold, the same for every sequence and step
  const double length_scale = keys.loss_type == "dr_grpo" ? model->config().max_position_embeddings : 0.0;
  const auto advantages = torch::tensor(batch.advantages, torch::kDouble).to(scored.sequence_logp.device());  // (S,)
  auto loss = grpo_loss(scored.token_logp, scored.mask, advantages, ref_tokens, keys.kl_coef, step_count, length_scale);
  return {loss, scored.tokens, scored.positions};
}

}  // namespace falcon::train
