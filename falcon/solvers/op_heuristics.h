#pragma once
// Constructive orienteering baseline of Table 2.
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

// Greedy insertion: repeatedly insert the node with the best prize / added length at its
// cheapest position, among the insertions that keep the route within the budget, until none
// fits. Nodes with no prize are never inserted. Deterministic (ties: lowest node id).
problems::Solution op_greedy(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
