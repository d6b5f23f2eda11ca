#pragma once
// Prins' split: the optimal cutting of a giant tour (all customers in one sequence) into
// consecutive depot-to-depot routes, by shortest path over the tour's prefixes (Prins 2004).
// The capacity is soft, as in hybrid genetic search: a route may carry up to max_load, and pays
// excess_penalty per unit of load above the capacity, so the search can cross infeasible space.
#include <vector>

#include "falcon/problems/cvrp.h"

namespace falcon::solvers {

struct SplitOptions {
  double excess_penalty = 1e9;  // per unit of load above the capacity (huge: a hard capacity)
  double max_load_factor = 1.5; // routes load at most this times the capacity (one customer always fits)
};

// Routes in tour order minimising sum(length) + excess_penalty * sum(max(0, load - capacity)).
// `tour` lists every customer 1..n-1 once (not checked). O(n * customers per route).
std::vector<std::vector<int>> split_giant_tour(const problems::cvrp::CvrpInstance& instance,
                                               const std::vector<int>& tour, const SplitOptions& options);

}  // namespace falcon::solvers
