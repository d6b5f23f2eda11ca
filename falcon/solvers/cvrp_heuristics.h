#pragma once
// CVRP baselines of Table 2 and the local search the CVRP ant colony uses.
#include <vector>

#include "falcon/problems/cvrp.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

// From the depot, always go to the nearest unvisited customer that still fits in the vehicle;
// when none fits, return to the depot and start a new route. Deterministic.
problems::Solution cvrp_nearest_neighbor(const problems::Instance& instance, const SolveOptions& options);

// Descent on feasible routes until no move improves: 2-opt inside a route, relocate of one
// customer to its cheapest place in another route, swap of two customers of different routes,
// and 2-opt* (two routes exchange their tails). Inter-route moves keep every load <= capacity;
// routes emptied on the way are dropped. Feasible input gives feasible, no longer output.
std::vector<std::vector<int>> cvrp_local_search(const problems::cvrp::CvrpInstance& instance,
                                                std::vector<std::vector<int>> routes);

}  // namespace falcon::solvers
