#include "falcon/solvers/op_heuristics.h"

#include "falcon/problems/op.h"

namespace falcon::solvers {

problems::Solution op_greedy(const problems::Instance& instance, const SolveOptions&) {
  const auto& op = problems::instance_as<problems::op::OpInstance>(instance, "op");
  const auto& g = op.geometry;
  const int n = op.size();
  std::vector<char> out(n, 0);  // in the route, or known not to fit
  out[op.start] = out[op.end] = 1;
  for (int v = 0; v < n; ++v) {
    if (op.prizes[v] <= 0) out[v] = 1;
  }
  std::vector<int> route;
  double length = g.d(op.start, op.end);
  while (true) {
    // Best (node, position) by prize / added length; an insertion that adds no length
    // (rounded or non-metric distances) beats every other, higher prize first.
    int best = -1;
    std::size_t best_pos = 0;
    double best_added = 0;
    auto better = [&](int v, double added) {
      return best < 0 || problems::op::better_buy(op.prizes[v], added, op.prizes[best], best_added);
    };
    for (int v = 0; v < n; ++v) {
      if (out[v]) continue;
      // Cheapest position for v: between stop[i-1] and stop[i] with stop = start, route..., end.
      std::size_t pos = 0;
      double added = 0;
      for (std::size_t i = 0; i <= route.size(); ++i) {
        const int a = i == 0 ? op.start : route[i - 1];
        const int b = i == route.size() ? op.end : route[i];
        const double cost = g.d(a, v) + g.d(v, b) - g.d(a, b);
        if (i == 0 || cost < added) added = cost, pos = i;
      }
      if (!problems::op::within_budget(op, length + added)) {
        // The route only grows; under the triangle inequality v would not fit later either.
        out[v] = 1;
        continue;
      }
      if (better(v, added)) best = v, best_pos = pos, best_added = added;
    }
    if (best < 0) break;
    route.insert(route.begin() + static_cast<std::ptrdiff_t>(best_pos), best);
    out[best] = 1;
    // Re-sum rather than accumulate, so that feasible() (which re-sums) agrees exactly.
    length = problems::path_length(g, op.start, route, op.end);
    if (!problems::op::within_budget(op, length)) {  // only by floating-point drift
      route.erase(route.begin() + static_cast<std::ptrdiff_t>(best_pos));
      length = problems::path_length(g, op.start, route, op.end);
    }
  }
  return problems::Solution::flat(std::move(route));
}

}  // namespace falcon::solvers
