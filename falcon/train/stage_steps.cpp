#include "falcon/train/stage_steps.h"

#include <algorithm>
#include <map>

#include "falcon/train/losses.h"
#include "falcon/train/policy_scoring.h"
#include "falcon/train/preferences.h"

namespace falcon::train {
namespace {

// The candidates of one group: its samples, plus the reference label when anchoring on it.
struct Candidate {
  const std::vector<int>* tokens;
  ScoredSample score;
  bool is_label = false;
};

std::vector<Candidate> candidates(const RolloutItem& item, const std::vector<RolloutSample>& group, bool with_label) {
  std::vector<Candidate> out;
  for (const auto& s : group)
    out.push_back({&s.train_tokens, {s.outcome.feasible && !s.train_tokens.empty(), s.outcome.objective}});
  if (with_label && item.reference_objective && !item.reference_tokens.empty())
    out.push_back({&item.reference_tokens, {true, *item.reference_objective}, true});
  return out;
}

// log pi of each sequence under the reference policy (adapters disabled), no gradient.
torch::Tensor reference_logp(model::CausalLm& model, const std::vector<Sequence>& sequences, int pad_id, bool normalise) {
  torch::NoGradGuard no_grad;
  model::AdaptersDisabled reference(model);
  return score_sequences(model, sequences, pad_id, normalise).sequence_logp;  // (S,)
}

}  // namespace

StepMetrics& StepMetrics::operator+=(const StepMetrics& o) {
  loss += o.loss;
  tokens += o.tokens;
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
                               d(local.anchored_on_label), local.reward_sum, d(local.rewards)});
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
  return m;
}

StepMetrics sft_step(model::CausalLm& model, const std::vector<Sequence>& sequences, int pad_id, double loss_scale,
                     const BatchShare& share) {
  StepMetrics m;
  m.groups = static_cast<std::int64_t>(sequences.size());
  std::int64_t targets = 0;  // the loss mask's ones: solution tokens, EOS included
  for (const auto& s : sequences) targets += static_cast<std::int64_t>(s.solution.size());
  const double global_targets = share.global(static_cast<double>(targets));
  if (sequences.empty()) return m;
  auto scored = score_sequences(model, sequences, pad_id);
  auto loss = sft_loss(scored.token_logp, scored.mask, std::max(global_targets, 1.0));  // ()
  (loss * loss_scale).backward();
  m.loss = loss.item<double>();
  m.tokens = scored.tokens;
  return m;
}

StepMetrics bopo_step(model::CausalLm& model, const std::vector<RolloutItem>& items,
                      const std::vector<std::vector<RolloutSample>>& groups, const StageSpec& stage, int pad_id,
                      double loss_scale, const BatchShare& share) {
  StepMetrics m;
  std::vector<Sequence> sequences;           // every sequence that appears in a pair, once
  std::vector<std::int64_t> winner, loser;   // pair -> sequence
  std::vector<double> coefficient;
  std::vector<std::int64_t> best_of_group;   // for the optional SFT term
  for (std::size_t g = 0; g < items.size(); ++g) {
    auto cands = candidates(items[g], groups[g], stage.anchor_on_label);
    std::vector<ScoredSample> scores;
    for (const auto& c : cands) scores.push_back(c.score);
    auto pairs = bopo_pairs(scores, items[g].problem->sense());
    if (!pairs) {
      ++m.skipped_groups;
      continue;
    }
    ++m.groups;
    m.anchored_on_label += cands[pairs->best].is_label;
    std::map<int, std::int64_t> index;  // candidate -> sequence
    auto sequence_of = [&](int c) {
      auto it = index.find(c);
      if (it != index.end()) return it->second;
      sequences.push_back({items[g].prompt, *cands[c].tokens});
      return index[c] = static_cast<std::int64_t>(sequences.size()) - 1;
    };
    const auto best = sequence_of(pairs->best);
    best_of_group.push_back(best);
    for (std::size_t j = 0; j < pairs->losers.size(); ++j) {
      winner.push_back(best);
      loser.push_back(sequence_of(pairs->losers[j]));
      coefficient.push_back(pairs->coefficients[j]);
    }
  }
  m.pairs = static_cast<std::int64_t>(winner.size());
  const double used_groups = share.global(static_cast<double>(m.groups));  // over every rank's slice
  if (m.groups == 0) return m;

  auto scored = score_sequences(model, sequences, pad_id, stage.length_normalise);
  const auto device = scored.sequence_logp.device();
  auto w = torch::tensor(winner, torch::kInt64).to(device), l = torch::tensor(loser, torch::kInt64).to(device);
  auto c = torch::tensor(coefficient, torch::kDouble).to(device) / used_groups;  // E_p: mean over the used groups
  torch::Tensor ref_w, ref_l;
  if (stage.reference == "adapters") {
    auto ref = reference_logp(model, sequences, pad_id, stage.length_normalise);  // (S,)
    ref_w = ref.index_select(0, w);
    ref_l = ref.index_select(0, l);
  }
  const auto& lp = scored.sequence_logp;  // (S,)
  auto loss = bopo_loss(lp.index_select(0, w), lp.index_select(0, l), c, stage.beta, ref_w, ref_l);
  if (stage.sft_weight > 0) {
    auto best = torch::tensor(best_of_group, torch::kInt64).to(device);
    auto best_nll = -(scored.token_logp * scored.mask).sum(-1) / scored.mask.sum(-1).clamp_min(1.0);  // (S,)
    loss = loss + stage.sft_weight * best_nll.index_select(0, best).sum() / used_groups;
  }
  (loss * loss_scale).backward();
  m.loss = loss.item<double>();
  m.tokens = scored.tokens;
  return m;
}

StepMetrics grpo_step(model::CausalLm& model, const std::vector<RolloutItem>& items,
                      const std::vector<std::vector<RolloutSample>>& groups, const StageSpec& stage, int pad_id,
                      double loss_scale, const BatchShare& share) {
  StepMetrics m;
  std::vector<Sequence> sequences;
  std::vector<double> advantages;
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
      sequences.push_back({item.prompt, groups[g][k].train_tokens});
      advantages.push_back(a[k]);
      used = true;
    }
    used ? ++m.groups : ++m.skipped_groups;
  }
  const double global_sequences = share.global(static_cast<double>(sequences.size()));
  if (sequences.empty()) return m;
  auto scored = score_sequences(model, sequences, pad_id);
  const auto device = scored.token_logp.device();
  torch::Tensor ref_tokens;
  if (stage.kl_coef > 0) {
    torch::NoGradGuard no_grad;
    model::AdaptersDisabled reference(model);
    ref_tokens = score_sequences(model, sequences, pad_id).token_logp;  // (S, T)
  }
  auto loss = grpo_loss(scored.token_logp, scored.mask, torch::tensor(advantages, torch::kDouble).to(device),
                        ref_tokens, stage.kl_coef, global_sequences);
  (loss * loss_scale).backward();
  m.loss = loss.item<double>();
  m.tokens = scored.tokens;
  return m;
}

StepMetrics dpo_step(model::CausalLm& model, const std::vector<RolloutItem>& items,
                     const std::vector<std::vector<RolloutSample>>& groups, const StageSpec& stage, int pad_id,
                     double loss_scale, const BatchShare& share) {
  StepMetrics m;
  std::vector<Sequence> sequences;  // winner, loser, winner, loser, ...
  for (std::size_t g = 0; g < items.size(); ++g) {
    const auto& problem = *items[g].problem;
    int best = -1, worst = -1;
    for (int k = 0; k < static_cast<int>(groups[g].size()); ++k) {
      if (groups[g][k].train_tokens.empty()) continue;
      if (best < 0 || eval::better(problem, groups[g][k].outcome, groups[g][best].outcome)) best = k;
      if (worst < 0 || eval::better(problem, groups[g][worst].outcome, groups[g][k].outcome)) worst = k;
    }
    if (best < 0 || !eval::better(problem, groups[g][best].outcome, groups[g][worst].outcome)) {
      ++m.skipped_groups;
      continue;
    }
    ++m.groups;
    sequences.push_back({items[g].prompt, groups[g][best].train_tokens});
    sequences.push_back({items[g].prompt, groups[g][worst].train_tokens});
  }
  m.pairs = m.groups;
  const double global_pairs = share.global(static_cast<double>(m.pairs));
  if (sequences.empty()) return m;
  auto scored = score_sequences(model, sequences, pad_id);
  auto ref = reference_logp(model, sequences, pad_id, /*normalise=*/false);  // (2P,)
  const auto& lp = scored.sequence_logp;                                       // (2P,)
  using torch::indexing::None;
  using torch::indexing::Slice;
  auto loss = dpo_loss(lp.index({Slice(0, None, 2)}), lp.index({Slice(1, None, 2)}), ref.index({Slice(0, None, 2)}),
                       ref.index({Slice(1, None, 2)}), stage.beta, global_pairs);
  (loss * loss_scale).backward();
  m.loss = loss.item<double>();
  m.tokens = scored.tokens;
  return m;
}

}  // namespace falcon::train
