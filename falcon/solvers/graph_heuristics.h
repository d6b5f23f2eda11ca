#pragma once
// Constructive MIS / MVC baselines of Table 2.
#include <vector>

#include "falcon/problems/graph.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

// Min-degree greedy: repeatedly take a vertex of minimum degree in the remaining graph (ties:
// smallest id), then delete it and its neighbours. Returns the set in ascending order.
std::vector<int> min_degree_independent_set(const problems::Graph& g);
// Max-degree greedy: repeatedly take a vertex with the most uncovered edges (ties: smallest
// id) until every edge is covered; it is MVC repair from the empty set. Ascending order.
std::vector<int> max_degree_vertex_cover(const problems::Graph& g);

problems::Solution mis_greedy(const problems::Instance& instance, const SolveOptions& options);
problems::Solution mvc_greedy(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
