#pragma once
// What a solution's picture shows. Each problem describes its own solutions in one of three
// forms (Problem::picture), and scoring/solution_svg.h draws the form as SVG:
//   RouteMap    routing: the nodes on the plane, one path per route;
//   GanttChart  scheduling: one row of bars per machine;
//   GraphSet    graphs: the vertices and edges, the chosen set.
// Given the model's raw solution when repair changed it, the description also says what repair
// changed, in the terms the picture draws: the edges of routes, the items of sets and orders.
// The helpers below compute those changes; an edge counts as added exactly when the repaired
// solution draws it and the raw one does not.
#include <cstddef>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "falcon/problems/routing_geometry.h"
#include "falcon/problems/solution.h"

namespace falcon::problems {

using Edge = std::pair<int, int>;  // undirected: first < second

struct RouteMap {
  std::vector<Point> coords;
  std::vector<int> depots;              // drawn as squares
  std::string depot_label;              // their legend entry
  std::vector<double> radius;           // by node; empty = all alike
  std::string route_label;              // "tour", "route"; numbered when there are several
  std::vector<std::vector<int>> paths;  // node ids in range, in drawing order
  bool shows_repair = false;            // a raw solution was given: the legend counts the changes
  std::vector<Edge> added_by_repair;    // sorted
  std::vector<int> dropped_by_repair;   // nodes in the raw solution and in no route now, sorted
};

struct GanttBar {
  int row = 0;  // the machine
  double start = 0, duration = 0;
  int job = 0;
  bool marked = false;  // placed by repair
};

struct GanttChart {
  int rows = 0;
  std::vector<GanttBar> bars;
  bool shows_repair = false;
  std::string marked_label;  // what a marked bar is ("job inserted by repair")
  std::size_t marked = 0;    // how many (jobs or operations) are marked
};

struct GraphSet {
  int n = 0;
  std::vector<Edge> edges;
  bool independent = true;  // MIS: an edge inside the set breaks the rule; MVC: an edge the set leaves uncovered
  std::vector<int> chosen;  // sorted, in range
  bool shows_repair = false;
  std::vector<int> added_by_repair, dropped_by_repair;  // sorted
};

using Picture = std::variant<RouteMap, GanttChart, GraphSet>;

// `ids` without those out of [0, n).
std::vector<int> in_range(const std::vector<int>& ids, int n);

// The edges of the paths: sorted, each once, without self-loops (a repeated node draws nothing).
std::vector<Edge> path_edges(const std::vector<std::vector<int>>& paths);

// Sets the repair fields of a route map drawn from `drawn`, whose raw solution had `raw_paths`.
void mark_route_repair(RouteMap& map, const std::vector<std::vector<int>>& raw_paths, const Solution& raw,
                       const Solution& drawn);

// Items (nodes, vertices, jobs) in any list of `a` and in no list of `b`, sorted, each once: what
// repair added (a = repaired, b = raw) or dropped (a = raw, b = repaired).
std::vector<int> items_missing_from(const Solution& a, const Solution& b);

// List by list (JSSP: machine by machine), the items of `repaired` that lie outside one longest
// common subsequence of that list and `raw`'s: the fewest items repair must have inserted or
// moved to turn the one order into the other. (list, item) pairs, sorted. A raw list's
// duplicates and ids out of range simply match nothing; a list `raw` lacks counts as empty.
std::vector<std::pair<int, int>> items_placed_by_repair(const Solution& raw, const Solution& repaired);

}  // namespace falcon::problems
