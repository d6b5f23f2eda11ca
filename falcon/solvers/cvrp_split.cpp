#include "falcon/solvers/cvrp_split.h"

#include <algorithm>
#include <limits>

namespace falcon::solvers {

std::vector<std::vector<int>> split_giant_tour(const problems::cvrp::CvrpInstance& instance,
                                               const std::vector<int>& tour, const SplitOptions& options) {
  const auto& g = instance.geometry;
  const int m = static_cast<int>(tour.size());
  const double max_load = options.max_load_factor * instance.capacity;
  // cost[j]: best cost of serving tour[0..j); from[j]: where the last of those routes starts.
  std::vector<double> cost(m + 1, std::numeric_limits<double>::infinity());
  std::vector<int> from(m + 1, 0);
  cost[0] = 0;
  for (int i = 0; i < m; ++i) {
    if (cost[i] == std::numeric_limits<double>::infinity()) continue;
    long load = 0;
    double length = 0;
    for (int j = i; j < m; ++j) {
      const int v = tour[j];
      load += instance.demands[v];
      if (j > i && load > max_load) break;
      length += j == i ? g.d(0, v) : g.d(tour[j - 1], v);
      const double excess = static_cast<double>(std::max(0L, load - instance.capacity));
      const double c = cost[i] + length + g.d(v, 0) + options.excess_penalty * excess;
      if (c < cost[j + 1]) cost[j + 1] = c, from[j + 1] = i;
    }
  }
  std::vector<std::vector<int>> routes;
  for (int j = m; j > 0; j = from[j]) routes.emplace_back(tour.begin() + from[j], tour.begin() + j);
  std::reverse(routes.begin(), routes.end());
  return routes;
}

}  // namespace falcon::solvers
