#pragma once
// Capacitated vehicle routing (Appendix B.3). Node 0 is the depot; a solution is a list of
// routes over customers 1..n-1, the depot implicit at both ends of every route:
//   "Routes: [[1, 2], [3]], Objective: x.xx"   (inner lists non-empty, Appendix D).
// Feasible: every customer exactly once over all routes, no depot or invalid id inside a route,
// no empty route, every route's load <= capacity. The number of routes is free (the paper's
// definition has no fleet limit); see CvrpInstance::vehicles for CVRPLIB's k.
// Readers for CVRPLIB .vrp/.sol files are in cvrp_files.h.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "falcon/problems/problem.h"
#include "falcon/problems/routing_geometry.h"

namespace falcon::problems::cvrp {

struct CvrpInstance : Instance {
  RoutingGeometry geometry;  // node 0 = depot
  std::vector<int> demands;  // by node; demands[0] = 0, every demand <= capacity
  int capacity = 0;
  // Fleet size k of a CVRPLIB name "...-kN" (0 when unknown). Recorded only: CVRPLIB's best
  // known values for sets A/B/E/P assume exactly k routes, the X set an unlimited fleet, and
  // feasibility here follows the paper, which does not limit the number of routes.
  int vehicles = 0;
  int size() const override { return geometry.n; }
};

// Keys: n (nodes including the depot), distribution (uniform | gm), modes, sigma, capacity.
// Depot and customers are drawn alike by sample_points; demands U{1..9}; capacity from n by
// default_capacity unless given.
std::shared_ptr<CvrpInstance> generate(const GenerateOptions& options, std::uint64_t seed);
// The usual capacities for CVRP-n (10: 20, 20: 30, 50: 40, 100: 50), linear in between
// (rounded to the nearest integer) and clamped outside [10, 100].
int default_capacity(int n);
// Throws falcon::Error when the instance breaks an invariant the repair relies on (a demand
// above the capacity, a non-zero depot demand, sizes that disagree).
void validate(const CvrpInstance& instance);

// "CVRP n=3 cap=30: 0:(x,y) 1:(x,y,q) 2:(x,y,q)": depot first, then one clause per customer
// with its demand; integer coordinates as in the TSP prompt. EXPLICIT-matrix files have no
// coordinates: their clauses carry the demand only ("1:(q)").
std::string prompt(const CvrpInstance& instance);
// The compact text style's prompt (formats/compact.h). With `for_echo` (compact_echo, whose notes
// copy the demand) a customer's demand comes right after its ID, "#1 5 12 87:#3 2#7 9;", the
// token after the ID as in the note, and each candidate carries its demand too: the next customer
// must fit the capacity left, and the candidates are where the choice looks.
std::string compact_prompt(const CvrpInstance& instance, int candidates, bool for_echo = false);
// Customers relabelled, the points through a symmetry of the square, each route in either
// direction; the routes keep their order (Problem::symmetric_copy).
SymmetricCopy symmetric_copy(const CvrpInstance& instance, const Solution& routes, Rng& rng);
// The compact_echo style's notes (formats/notes.h): after each customer, its demand and the
// capacity its route has left ("6 24"), never below 0; ids out of range take nothing ("0 24").
EchoNotes echo_notes(const CvrpInstance& instance, const Solution& routes);
// The compact_ranked style's notes (formats/ranked.h): after each customer, the customers
// not yet visited whose demand fits the capacity its route has left, nearest first ("#4#9"). When
// none fits but some are left, the route must end: "#0" and then the customers left, nearest the
// depot first ("#0#7#2"), the next route's candidates. When none is left, "". Ties go to the
// smaller ID. Ids out of range move nothing; a customer visited again moves the vehicle but
// loads nothing.
EchoNotes ranked_notes(const CvrpInstance& instance, const Solution& routes);
// The compact_ranked style's order: each route runs from its end nearer the depot, and the routes
// go by that first customer's distance from the depot, nearest first (nearest neighbour's start).
Solution ranked_order(const CvrpInstance& instance, const Solution& routes);

// Sum of depot -> route -> depot lengths; ids outside [0, n) are skipped.
double total_length(const CvrpInstance& instance, const Solution& solution);
// Demand of the valid customers in `route` (each counted as often as it appears).
int route_load(const CvrpInstance& instance, const std::vector<int>& route);

// Violation magnitude v(x), term by term (see repair_routes for how each bounds the repair):
struct ViolationCounts {
  int invalid = 0;       // entries outside 1..n-1 (the depot 0 inside a route included)
  int duplicates = 0;    // later occurrences of a customer already seen, across all routes
  int missing = 0;       // customers in no route
  int empty_routes = 0;  // routes with no first-occurrence customer (empty, or emptied by the two above)
  int overload = 0;      // sum over overloaded routes of (first-occurrence customers - 1), at least 1
  int total() const { return invalid + duplicates + missing + empty_routes + overload; }
};
ViolationCounts violation_counts(const CvrpInstance& instance, const Solution& solution);
double violation(const CvrpInstance& instance, const Solution& solution);
bool feasible(const CvrpInstance& instance, const Solution& solution);

// Appendix E, CVRP repair:
//   1. per route, keep the first occurrence of each customer (across routes too) and drop the
//      depot and invalid ids; drop routes left empty;
//   2. insert each missing customer (ascending id) at its cheapest position over the routes that
//      still have room for it; when none has, it opens a new route at the end;
//   3. split each overloaded route at the cheapest point (SplitCost of the paper) whose prefix
//      fits; the suffix becomes the next route and is split in turn.
// Deviations from the paper's pseudo-code, both for locality: step 2 never inserts into a route
// without room (the paper inserts anywhere and lets step 3 split, so one missing customer could
// cost up to |route| splits), and step 3 keeps the suffix next to its prefix rather than moving
// it to the end of the list.
// Identity on feasible input.
Solution repair_routes(const CvrpInstance& instance, const Solution& solution);

// d(a, b): insert/delete distance between the token sequences "| r1 | r2 ... | rm" of a and b,
// where each route is opened by a separator token. It is a metric on solutions (the encoding is
// injective). Bound, with v(x) = ViolationCounts::total():
//   step 1 deletes exactly invalid + duplicates ids and empty_routes separators;
//   step 2 inserts each missing customer, plus a separator when it opens a route (<= 2 missing);
//   step 3 touches only routes overloaded after step 1 (step 2 keeps fitting routes fitting and
//     never adds to an overloaded one) and splits a route of c customers at most c - 1 times,
//     one separator each (<= overload).
// Hence d(R(x), x) <= invalid + duplicates + empty_routes + 2 missing + overload <= 2 v(x): alpha = 2.
double repair_distance(const Solution& repaired, const Solution& original);
inline constexpr double kLocalityConstant = 2.0;

const Problem& problem();

}  // namespace falcon::problems::cvrp
