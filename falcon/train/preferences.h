#pragma once
// From scored samples to training signal, without LibTorch: BOPO's best-anchored pairs
// (Definition 3.6), GRPO's group-normalised advantages, and the FOARL reward of LLMCoSolver.
// The trainer turns these numbers into loss coefficients (losses.h).
#include <optional>
#include <vector>

#include "falcon/problems/problem.h"

namespace falcon::train {

// One sample of a group (K samples of one instance), already parsed, repaired or not, scored.
struct ScoredSample {
  bool feasible = false;  // feasible as sampled (or after repair when repair is in the loop)
  double objective = 0.0; // meaningful when feasible
};

// Definition 3.6: y* = the best feasible sample (first one on ties); pairs (y*, y_i) for every
// other feasible y_i; w_i = Delta_i / mean(Delta), Delta_i = |f(y_i) - f(y*)| in the problem's
// sense. coefficient_i = w_i / (K' - 1), so summing coefficient_i * loss_i over the pairs is the
// paper's per-instance average.
struct BopoPairs {
  int best = -1;
  std::vector<int> losers;
  std::vector<double> weights;       // w_i, mean 1
  std::vector<double> coefficients;  // w_i / (K' - 1)
};
// nullopt for a degenerate group (fewer than two feasible samples, or all feasible objectives
// equal: mean Delta = 0 makes w undefined) — the trainer skips and counts it.
std::optional<BopoPairs> bopo_pairs(const std::vector<ScoredSample>& group, problems::Sense sense);

// GRPO (Shao et al. 2024): A_i = (r_i - mean r) / (std r + eps), population std.
std::vector<double> group_advantages(const std::vector<double>& rewards, double eps = 1e-6);

// Reward of one sample for GRPO: -gap to the reference objective when feasible, and
// infeasible_reward (default -1: worse than a 100% gap) otherwise.
double gap_reward(const ScoredSample& sample, double reference_objective, problems::Sense sense,
                  double infeasible_reward = -1.0);

// FOARL, our reading of LLMCoSolver's reward: feasibility partial credit plus 1 / (1 + gap):
//   parsed and feasible:    1 + 1 / (1 + max(gap, 0))
//   parsed, infeasible:     1 / (1 + violation)          (partial credit in (0, 1])
//   unparsable:             0
double foarl_reward(bool parsed, const ScoredSample& sample, double violation, double reference_objective,
                    problems::Sense sense);

}  // namespace falcon::train
