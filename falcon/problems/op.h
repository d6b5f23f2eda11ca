#pragma once
// Orienteering problem (Appendix B, Definition OP). A route leaves `start`, visits a subset
// of the other nodes and ends at `end` with length <= budget; maximise the collected prize.
// Solution text: "Route: [3, 7, 1], Objective: x.xx" lists the visited nodes in order,
// WITHOUT the start and end nodes (they are implied), so "Route: []" visits nothing.
//   generated instances: start = end = 0 (a depot tour, Kool et al. 2019);
//   OPLib (.oplib):      start = end = the depot, TSPLIB-rounded distances;
//   Tsiligirides/Chao:   an s-t path from point 1 to point 2, real Euclidean distances.
#include <memory>
#include <string>
#include <vector>

#include "falcon/problems/problem.h"
#include "falcon/problems/routing_geometry.h"

namespace falcon::problems::op {

struct OpInstance : Instance {
  RoutingGeometry geometry;
  std::vector<double> prizes;  // by node; the start/end prizes count once (OPLib depots have one)
  double budget = 0;           // maximum route length D
  int start = 0;
  int end = 0;
  int size() const override { return geometry.n; }
};

// Throws falcon::Error when the instance cannot have a feasible route (budget below the
// start-end distance) or its parts disagree; readers and the generator call it, so repair
// can always reach a feasible route by removing nodes.
void validate(const OpInstance& instance);

// Kool et al.'s max length for n nodes (depot included): 2 at n <= 20, 3 at 50, 4 at n >= 100,
// linear in between.
double default_budget(int n);

// Keys: n, distribution (uniform | gm), modes, sigma, prize (const | uniform | distance,
// default distance), budget (default: default_budget(n)). Node 0 is the depot (prize 0).
std::shared_ptr<OpInstance> generate(const GenerateOptions& options, std::uint64_t seed);
// `.oplib` (OPLib) or `.txt` (Tsiligirides/Chao); see op_files.h.
std::shared_ptr<OpInstance> read_file(const std::string& path);
std::string prompt(const OpInstance& instance);
std::string compact_prompt(const OpInstance& instance, int candidates);  // formats/compact.h
// Nodes other than the start and end relabelled, the points through a symmetry of the square,
// a depot tour in either direction (Problem::symmetric_copy).
SymmetricCopy symmetric_copy(const OpInstance& instance, const Solution& route, Rng& rng);

// The compact_echo style's notes (formats/notes.h): after each node, the budget the route
// would have left if it went to the end from there, on the prompt's grid ("37"; floor, never below
// 0), so a node fits exactly when its detour is at most the note before it. Ids out of range
// take nothing (the note repeats).
EchoNotes echo_notes(const OpInstance& instance, const Solution& route);
// Whether visiting a node with prize `prize_a` at added length `added_a` is a better buy than
// `prize_b` at `added_b`: more prize per added length, and an insertion that adds no length
// (rounded or non-metric distances) before every other, higher prize first. Greedy's rule.
bool better_buy(double prize_a, double added_a, double prize_b, double added_b);
// The compact_ranked style's notes (formats/ranked.h): after each node, the nodes not yet
// visited that the route can still go to and then end within the budget, the better buy of
// appending them (better_buy, added length d(last, u) + d(u, end) - d(last, end)) first, ties
// to the smaller ID. So a route is within the budget exactly when each node after the first is
// in the note before it. Ids out of range and the start and end move nothing.
EchoNotes ranked_notes(const OpInstance& instance, const Solution& route);
// The compact_ranked style's order: a depot tour (start = end) runs in the direction whose first
// node is the better buy from the depot; an s-t path keeps its direction.
Solution ranked_order(const OpInstance& instance, const Solution& route);

// start -> route... -> end; invalid ids are skipped.
double route_length(const OpInstance& instance, const std::vector<int>& route);
// Prizes of the start and end nodes plus those of the distinct valid other nodes listed.
// The start/end prize is part of it so that OPLib ROUTE_SCORE values compare directly.
double route_prize(const OpInstance& instance, const std::vector<int>& route);
// length <= budget, with a relative tolerance of 1e-9 so that an optimum that touches the
// budget exactly is not lost to floating-point summation order.
bool within_budget(const OpInstance& instance, double length);

// The route with invalid ids, start/end ids and repeats removed (first occurrence kept).
std::vector<int> clean_route(const OpInstance& instance, const std::vector<int>& route);

bool feasible(const OpInstance& instance, const Solution& solution);
// v(x), see op.cpp for why this and not the paper's budget excess:
//   v = |x| - |clean(x)|   when clean(x) fits the budget,
//   v = |x|                otherwise,           (+1 when x is not exactly one list).
double violation(const OpInstance& instance, const Solution& solution);
// The paper's v(r) = max(0, length(clean(x)) - D): reported for analysis, NOT a locality bound.
double budget_excess(const OpInstance& instance, const Solution& solution);
// Appendix E (OP repair): clean the route, then while over budget remove the node with the smallest
// prize / DistContrib; if still over budget (impossible for validated instances) visit nothing.
std::vector<int> repair_route(const OpInstance& instance, const std::vector<int>& route);

const Problem& problem();

}  // namespace falcon::problems::op
