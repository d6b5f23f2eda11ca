#include "falcon/train/preferences.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace falcon::train {

std::optional<BopoPairs> bopo_pairs(const std::vector<ScoredSample>& group, problems::Sense sense) {
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
  std::vector<double> deltas;
  for (int i = 0; i < static_cast<int>(group.size()); ++i) {
    if (!group[i].feasible || i == pairs.best) continue;
    pairs.losers.push_back(i);
    deltas.push_back(std::fabs(group[i].objective - best));
  }
  if (deltas.empty()) return std::nullopt;
  const double mean = std::accumulate(deltas.begin(), deltas.end(), 0.0) / static_cast<double>(deltas.size());
  if (!(mean > 0.0)) return std::nullopt;
  for (double d : deltas) {
    pairs.weights.push_back(d / mean);
    pairs.coefficients.push_back(d / mean / static_cast<double>(deltas.size()));
  }
  return pairs;
}

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

}  // namespace falcon::train
