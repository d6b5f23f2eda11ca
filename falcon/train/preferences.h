#pragma once
// From scored samples to training signal, without LibTorch: GRPO's group-normalised advantages
// and the FOARL reward of LLMCoSolver (BOPO's pairs and weights: bopo.h).
#include <vector>

#include "falcon/problems/problem.h"

namespace falcon::train {

// One sample of a group (K samples of one instance), already parsed, repaired or not, scored.
struct ScoredSample {
  bool feasible = false;  // feasible as sampled (or after repair when repair is in the loop)
  double objective = 0.0; // meaningful when feasible
};

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
