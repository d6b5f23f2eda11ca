#pragma once
// What repair changed in a solution, in the terms its picture (solution_svg.h) draws: the edges
// of routes, the items of sets and orders. The picture and the changed sets read the same paths,
// so an edge is highlighted exactly when the repaired solution draws it and the raw one does not.
#include <utility>
#include <vector>

#include "falcon/problems/problem.h"

namespace falcon::eval {

using Edge = std::pair<int, int>;  // undirected: first < second

// TSP: one closed tour; CVRP: one depot -> route -> depot path per route; OP: start -> items ->
// end. Ids out of range are dropped (a raw solution may have them). Empty for other problems.
std::vector<std::vector<int>> route_paths(const problems::Instance& instance, const problems::Solution& solution);

// The edges of the paths: sorted, each once, without self-loops (a repeated node draws nothing).
std::vector<Edge> path_edges(const std::vector<std::vector<int>>& paths);

// Edges the repaired solution draws that the raw one does not (sorted). Empty for non-routing problems.
std::vector<Edge> edges_added_by_repair(const problems::Instance& instance, const problems::Solution& raw,
                                        const problems::Solution& repaired);

// Items (nodes, vertices, jobs) in any list of `a` and in no list of `b`, sorted, each once: what
// repair added (a = repaired, b = raw) or dropped (a = raw, b = repaired).
std::vector<int> items_missing_from(const problems::Solution& a, const problems::Solution& b);

// List by list (JSSP: machine by machine), the items of `repaired` that lie outside one longest
// common subsequence of that list and `raw`'s: the fewest items repair must have inserted or
// moved to turn the one order into the other. (list, item) pairs, sorted. A raw list's
// duplicates and ids out of range simply match nothing; a list `raw` lacks counts as empty.
std::vector<std::pair<int, int>> items_placed_by_repair(const problems::Solution& raw,
                                                        const problems::Solution& repaired);

}  // namespace falcon::eval
