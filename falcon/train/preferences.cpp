#include "falcon/train/preferences.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace falcon::train {

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
