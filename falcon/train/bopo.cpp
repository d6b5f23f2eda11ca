#include "falcon/train/bopo.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "falcon/train/policy_scoring.h"

namespace falcon::train {

std::optional<BopoPairs> bopo_pairs(const std::vector<ScoredSample>& group, problems::Sense sense, bool infeasible_losers) {
  const bool minimize = sense == problems::Sense::kMinimize;
  BopoPairs pairs;
  for (int i = 0; i < static_cast<int>(group.size()); ++i) {
    if (!group[i].feasible) continue;
    if (pairs.best < 0 || (minimize ? group[i].objective < group[pairs.best].objective
                                    : group[i].objective > group[pairs.best].objective))
      pairs.best = i;
  }
  if (pairs.best < 0) return std::nullopt;
  const double best = group[pairs.best].objective;
  std::vector<int> feasible, infeasible;
  std::vector<double> deltas;
  for (int i = 0; i < static_cast<int>(group.size()); ++i) {
    if (i == pairs.best) continue;
    if (!group[i].feasible) {
      infeasible.push_back(i);
      continue;
    }
    feasible.push_back(i);
    deltas.push_back(std::fabs(group[i].objective - best));
  }
  const double mean =
      deltas.empty() ? 0.0 : std::accumulate(deltas.begin(), deltas.end(), 0.0) / static_cast<double>(deltas.size());
  if (mean > 0.0) {  // else w = Delta / mean is undefined: the feasible samples give no pairs
    for (std::size_t k = 0; k < feasible.size(); ++k) {
      pairs.losers.push_back(feasible[k]);
      pairs.weights.push_back(deltas[k] / mean);
    }
  }
  if (infeasible_losers) {  // an infeasible sample weighs as the worst feasible one, at least 1
    double weight = 1.0;
    for (double w : pairs.weights) weight = std::max(weight, w);
    for (int i : infeasible) {
      pairs.losers.push_back(i);
      pairs.weights.push_back(weight);
    }
  }
  if (pairs.losers.empty()) return std::nullopt;
  for (double w : pairs.weights) pairs.coefficients.push_back(w / static_cast<double>(pairs.losers.size()));
  return pairs;
}

torch::Tensor bopo_loss(const torch::Tensor& logp_winner, const torch::Tensor& logp_loser,
                        const torch::Tensor& coefficients, double beta, const torch::Tensor& ref_winner,
                        const torch::Tensor& ref_loser) {
  auto margin = logp_winner - logp_loser;                            // (P,)
  if (ref_winner.defined()) margin = margin - (ref_winner - ref_loser);
  return -(coefficients.to(margin.scalar_type()) * torch::log_sigmoid(beta * margin)).sum();  // ()
}

namespace {

// The candidates of one group: its samples, plus the reference label when anchoring on it.
struct Candidate {
  const std::vector<int>* tokens;
  ScoredSample score;
  bool is_label = false;
};

std::vector<Candidate> candidates(const policy::RolloutItem& item, const std::vector<policy::RolloutSample>& group, bool with_label) {
  std::vector<Candidate> out;
  for (const auto& s : group)  // a sample with no tokens is nobody's pair
    if (!s.train_tokens.empty()) out.push_back({&s.train_tokens, {s.outcome.feasible, s.outcome.objective}});
  if (with_label && item.reference_objective && !item.reference_tokens.empty())
    out.push_back({&item.reference_tokens, {true, *item.reference_objective}, true});
  return out;
}

}  // namespace

MicroBatch prepare_bopo(const std::vector<policy::RolloutItem>& items,
                        const std::vector<std::vector<policy::RolloutSample>>& groups, const recipe::StageSpec& stage) {
  const auto& keys = stage.keys_of<recipe::BopoKeys>();
  MicroBatch batch;
  batch.kind = recipe::StageKind::kBopo;
  auto& m = batch.metrics;
  for (std::size_t g = 0; g < items.size(); ++g) {
    auto cands = candidates(items[g], groups[g], keys.anchor_on_label);
    std::vector<ScoredSample> scores;
    for (const auto& c : cands) scores.push_back(c.score);
    auto pairs = bopo_pairs(scores, items[g].problem->sense(), keys.infeasible_losers_for(items[g].problem->name()));
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
      batch.sequences.push_back({items[g].prompt, *cands[c].tokens});
      batch.item_of.push_back(g);
      return index[c] = static_cast<std::int64_t>(batch.sequences.size()) - 1;
    };
    const auto best = sequence_of(pairs->best);
    batch.best.push_back(best);
    for (std::size_t j = 0; j < pairs->losers.size(); ++j) {
      batch.winner.push_back(best);
      batch.loser.push_back(sequence_of(pairs->losers[j]));
      batch.coefficients.push_back(pairs->coefficients[j]);
    }
  }
  m.pairs = static_cast<std::int64_t>(batch.winner.size());
  batch.count = static_cast<double>(m.groups);
  return batch;
}

MicroBatchLoss bopo_micro_batch_loss(model::CausalLm& model, const MicroBatch& batch, const recipe::StageSpec& stage,
                                     int pad_id, double step_count) {
  const auto& keys = stage.keys_of<recipe::BopoKeys>();
  const auto scored = score_sequences(model, batch.sequences, pad_id, keys.length_normalise);
  const auto device = scored.sequence_logp.device();
  auto w = torch::tensor(batch.winner, torch::kInt64).to(device);                  // (P,)
  auto l = torch::tensor(batch.loser, torch::kInt64).to(device);                   // (P,)
  auto c = torch::tensor(batch.coefficients, torch::kDouble).to(device) / step_count;  // (P,) E_p over the step
  torch::Tensor ref_w, ref_l;
  if (keys.reference == "adapters") {
    auto ref = score_under_reference(model, batch.sequences, pad_id, keys.length_normalise).sequence_logp;  // (S,)
    ref_w = ref.index_select(0, w);
    ref_l = ref.index_select(0, l);
  }
  const auto& lp = scored.sequence_logp;  // (S,)
  auto loss = bopo_loss(lp.index_select(0, w), lp.index_select(0, l), c, keys.beta, ref_w, ref_l);  // ()
  if (keys.sft_weight > 0) {
    auto best = torch::tensor(batch.best, torch::kInt64).to(device);                                   // (G,)
    auto best_nll = -(scored.token_logp * scored.mask).sum(-1) / scored.mask.sum(-1).clamp_min(1.0);  // (S,)
    loss = loss + keys.sft_weight * best_nll.index_select(0, best).sum() / step_count;
  }
  return {loss, scored.tokens, scored.positions};
}

}  // namespace falcon::train
