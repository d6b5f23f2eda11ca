#include "falcon/solvers/routing_heuristics.h"

#include "falcon/problems/tsp.h"

namespace falcon::solvers {

std::vector<int> nearest_neighbor_tour(const problems::RoutingGeometry& g, int start) {
  std::vector<char> visited(g.n, 0);
  std::vector<int> tour = {start};
  visited[start] = 1;
  for (int step = 1; step < g.n; ++step) {
    int best = -1;
    for (int v = 0; v < g.n; ++v) {
      if (!visited[v] && (best < 0 || g.d(tour.back(), v) < g.d(tour.back(), best))) best = v;
    }
    visited[best] = 1;
    tour.push_back(best);
  }
  return tour;
}

problems::Solution tsp_nearest_neighbor(const problems::Instance& instance, const SolveOptions&) {
  const auto& tsp = problems::instance_as<problems::tsp::TspInstance>(instance, "tsp");
  return problems::Solution::flat(nearest_neighbor_tour(tsp.geometry, 0));
}

}  // namespace falcon::solvers
