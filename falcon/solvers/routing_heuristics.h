#pragma once
// Constructive routing baselines of Table 2.
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

// Start at node 0, always go to the nearest unvisited node.
problems::Solution tsp_nearest_neighbor(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
