#pragma once
// Constructive MIS / MVC baselines of Table 2.
#include <vector>

#include "falcon/problems/graph.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

// Min-degree greedy: repeatedly take a vertex of minimum degree in the remaining graph (ties:
// smallest id), then delete it and its neighbours. Returns the set in ascending order.
std::vector<int> min_degree_independent_set(const problems::Graph& g);
// Min-degree greedy with its ties broken first by the two-hop rule (problems::mis_mvc::two_hop_key:
// the vertex whose remaining neighbours have the most remaining neighbours), then by id: the
// compact_ranked_keyed text's MIS order. Not a baseline of the paper; the yardstick of a model
// trained toward it. Ascending order.
std::vector<int> two_hop_independent_set(const problems::Graph& g);
// Max-degree greedy: repeatedly take a vertex with the most uncovered edges (ties: smallest
// id) until every edge is covered; it is MVC repair from the empty set. Ascending order.
std::vector<int> max_degree_vertex_cover(const problems::Graph& g);
// Max-degree greedy with its ties broken first by the two-hop rule (the vertex whose neighbours
// have the fewest uncovered edges), then by id: the compact_ranked_keyed text's MVC order, and
// the yardstick of a model trained toward it. Ascending order.
std::vector<int> two_hop_vertex_cover(const problems::Graph& g);

problems::Solution mis_greedy(const problems::Instance& instance, const SolveOptions& options);
problems::Solution mis_greedy_two_hop(const problems::Instance& instance, const SolveOptions& options);
problems::Solution mvc_greedy(const problems::Instance& instance, const SolveOptions& options);
problems::Solution mvc_greedy_two_hop(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
