#include "falcon/solvers/routing_heuristics.h"

#include "falcon/problems/tsp.h"

namespace falcon::solvers {

problems::Solution tsp_nearest_neighbor(const problems::Instance& instance, const SolveOptions&) {
  const auto& tsp = problems::instance_as<problems::tsp::TspInstance>(instance, "tsp");
  const auto& g = tsp.geometry;
  std::vector<char> visited(g.n, 0);
  std::vector<int> tour = {0};
  visited[0] = 1;
  for (int step = 1; step < g.n; ++step) {
    int best = -1;
    for (int v = 0; v < g.n; ++v) {
      if (!visited[v] && (best < 0 || g.d(tour.back(), v) < g.d(tour.back(), best))) best = v;
    }
    visited[best] = 1;
    tour.push_back(best);
  }
  return problems::Solution::flat(std::move(tour));
}

}  // namespace falcon::solvers
