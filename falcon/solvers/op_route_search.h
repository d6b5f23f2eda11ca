#pragma once
// Moves on one orienteering route (start -> nodes... -> end, length <= budget) for op_reference:
//   fill:    insert the unvisited node of best prize / added length at its cheapest place while
//            one fits (the ratio optionally scaled by a random factor, for diversity);
//   shorten: 2-opt and or-opt (runs of 1-3 nodes, either direction) until neither applies;
//   replace: exchange a visited node for an unvisited one of more prize, or of equal prize when
//            that shortens the route;
//   drop:    remove the node of least prize / saved length until the route fits;
//   perturb: remove a random run of consecutive nodes, or the visited nodes nearest a random one.
// Distances are taken as symmetric when they are (every OP input here); otherwise the reversing
// moves (2-opt, reversed or-opt) are left out.
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/problems/op.h"

namespace falcon::solvers {

struct OpRoute {
  std::vector<int> nodes;  // visited, start and end implied
  double prize = 0;        // of `nodes` only (the start/end prizes are the same for every route)
  double length = 0;
};

class OpRouteSearch {
 public:
  explicit OpRouteSearch(const problems::op::OpInstance& instance);

  OpRoute make(std::vector<int> nodes) const;
  bool fits(const OpRoute& r) const { return problems::op::within_budget(inst_, r.length); }
  // a strictly better than b: more prize, or as much prize in a shorter route.
  bool better(const OpRoute& a, const OpRoute& b) const;
  bool same_value(const OpRoute& a, const OpRoute& b) const { return !better(a, b) && !better(b, a); }
  // Nodes worth visiting: a positive prize, neither start nor end.
  const std::vector<int>& candidates() const { return candidates_; }

  // Fill, shorten and replace until none of them changes the route (which must fit). The first
  // fill scales each ratio by a factor drawn from [1, 1 + noise).
  void local_search(OpRoute& r, double noise, Rng& rng);
  // Inserts each of `extra` (not yet visited) at its cheapest place, budget ignored.
  void insert_cheapest(OpRoute& r, const std::vector<int>& extra) const;
  // 2-opt and or-opt until neither applies; true when the route got shorter.
  bool shorten(OpRoute& r) const;
  // Removes nodes by least prize / saved length (ratio scaled by a factor from [1, 1 + noise))
  // until the route fits, shortening it every few removals.
  void drop(OpRoute& r, double noise, Rng& rng) const;
  void perturb(OpRoute& r, Rng& rng) const;

 private:
  int node(const std::vector<int>& r, int k) const;  // k = -1: start, k = |r|: end
  double length_of(const std::vector<int>& r) const;
  double detour(int a, int v, int b) const;
  int fill(OpRoute& r, double noise, Rng& rng);
  bool replace(OpRoute& r);
  bool two_opt(std::vector<int>& r) const;
  bool or_opt(std::vector<int>& r) const;
  void recount(OpRoute& r) const;

  const problems::op::OpInstance& inst_;
  const problems::RoutingGeometry& g_;
  const int n_;
  bool symmetric_ = true;
  double eps_ = 0;        // length differences below this are rounding noise
  double prize_eps_ = 0;  // likewise for prizes
  std::vector<int> candidates_;
  std::vector<char> in_;  // scratch: visited flags
};

}  // namespace falcon::solvers
