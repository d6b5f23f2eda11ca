#pragma once
// The local search of hybrid genetic search for the CVRP (Vidal 2022, "Hybrid genetic search
// for the CVRP: open-source implementation and SWAP* neighborhood"), used by cvrp_reference.
// Moves between a customer u and each of its `neighbours` nearest customers v (granular search):
// relocate of u, of (u, x) and of (x, u) after v; swap of u / (u, x) with v / (v, y); 2-opt inside
// a route; both 2-opt* variants between routes; then SWAP* between routes whose polar sectors
// around the depot overlap (every pair when the instance has no coordinates). First improvement
// until no move improves the penalised cost
//   sum of route lengths + excess_penalty * sum of loads above the capacity,
// so infeasible routes are allowed and merely priced.
#include <cstdint>
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/problems/cvrp.h"

namespace falcon::solvers {

class CvrpGranularSearch {
 public:
  CvrpGranularSearch(const problems::cvrp::CvrpInstance& instance, int neighbours);

  // Descends from `routes` (every customer once; empty routes allowed) and returns the
  // non-empty routes of the local optimum. `rng` randomises the order moves are tried in.
  std::vector<std::vector<int>> run(const std::vector<std::vector<int>>& routes, double excess_penalty, Rng& rng);

 private:
  struct Route {
    std::vector<int> seq;  // customers, the depot implicit at both ends
    long load = 0;
    double penalty = 0;
    int modified = 0;       // move counter when the route last changed
    int swap_tested = -1;   // move counter when SWAP* last started from this route
    int sector_start = 0;   // polar sector of the customers around the depot, 0..65535
    int sector_end = 0;
  };
  struct ThreeBest {  // three cheapest insertion places of a customer into one route
    int computed = -1;
    double cost[3];
    int after[3];  // node after which to insert (0 = the route's depot), -1 = none
    void reset();
    void add(double c, int after_node);
  };

  double pen(long load) const;
  int node_at(const Route& r, int p) const;  // p = 0 or |seq|+1: the depot (0)
  int next_of(int route, int node) const;    // node 0 = the route's start depot
  void set_u(int u);
  void set_v(int route, int v);  // v = 0: the start depot of `route`
  void update_route(int r);
  void apply(int ru, std::vector<int> seq_u, int rv, std::vector<int> seq_v);
  bool move1();
  bool move2(bool reversed);
  bool move4();
  bool move5();
  bool move6();
  bool move7();
  bool move8();
  bool move9();
  bool swap_star(int ru, int rv);
  void preprocess_insertions(int r1, int r2);
  double cheapest_insert_removing(int u, int v, int& after);
  bool sectors_overlap(const Route& a, const Route& b) const;

  const problems::cvrp::CvrpInstance& inst_;
  int n_;
  bool has_coords_;
  double eps_ = 0;  // an improvement must beat rounding noise, or descent may cycle
  bool symmetric_;  // reversal moves (2-opt, reversed 2-opt*) price reversed segments as equal
  std::vector<std::vector<int>> neighbours_;
  std::vector<int> angle_;

  double excess_penalty_ = 0;
  std::vector<Route> routes_;
  std::vector<int> route_of_, pos_of_;  // pos: 1-based place in the route
  std::vector<long> cum_load_;          // load up to and including the customer
  std::vector<int> tested_;             // move counter when the customer's moves were last tried
  std::vector<double> delta_removal_;
  std::vector<ThreeBest> best_insert_;  // [route * n + customer]
  int moves_ = 0;
  bool completed_ = false;

  // The pair under evaluation: u, its route and neighbours; v (0 = depot) and its route.
  int ru_, pu_, u_, x_, xnext_, uprev_;
  int rv_, pv_, v_, y_, ynext_, vprev_;
  long qu_, qx_, qv_, qy_;
};

}  // namespace falcon::solvers
