#pragma once
// Constructive routing baselines of Table 2.
#include <vector>

#include "falcon/problems/routing_geometry.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

// From `start`, always go to the nearest unvisited node: a permutation of all g.n nodes.
std::vector<int> nearest_neighbor_tour(const problems::RoutingGeometry& g, int start);

// Start at node 0, always go to the nearest unvisited node.
problems::Solution tsp_nearest_neighbor(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
