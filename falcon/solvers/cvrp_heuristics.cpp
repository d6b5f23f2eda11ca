#include "falcon/solvers/cvrp_heuristics.h"

#include <algorithm>

#include "falcon/core/error.h"

namespace falcon::solvers {
namespace {

using problems::RoutingGeometry;
using problems::cvrp::CvrpInstance;
using Routes = std::vector<std::vector<int>>;

constexpr double kEps = 1e-9;  // an improvement must beat rounding noise, or descent may cycle

// Node before / after position i of a route, the depot at both ends.
int before(const std::vector<int>& r, int i) { return i == 0 ? 0 : r[i - 1]; }
int after(const std::vector<int>& r, int i) { return i + 1 == static_cast<int>(r.size()) ? 0 : r[i + 1]; }

class LocalSearch {
 public:
  LocalSearch(const CvrpInstance& instance, Routes routes)
      : inst_(instance), g_(instance.geometry), routes_(std::move(routes)) {
    for (const auto& r : routes_) loads_.push_back(problems::cvrp::route_load(inst_, r));
  }

  Routes run() {
    bool improved = true;
    while (improved) {
      improved = false;
      for (auto& r : routes_) improved |= two_opt(r);
      improved |= relocate() || swap() || two_opt_star();
    }
    Routes out;
    for (auto& r : routes_) {
      if (!r.empty()) out.push_back(std::move(r));
    }
    return out;
  }

 private:
  // Reverses r[i..j] when d(before i, r[j]) + d(r[i], after j) is shorter; repeats until no gain.
  bool two_opt(std::vector<int>& r) {
    bool any = false;
    for (bool again = true; again;) {
      again = false;
      const int m = static_cast<int>(r.size());
      for (int i = 0; i < m; ++i) {
        for (int j = i + 1; j < m; ++j) {
          const int a = before(r, i), b = after(r, j);
          const double delta = g_.d(a, r[j]) + g_.d(r[i], b) - g_.d(a, r[i]) - g_.d(r[j], b);
          if (delta < -kEps) {
            std::reverse(r.begin() + i, r.begin() + j + 1);
            again = any = true;
          }
        }
      }
    }
    return any;
  }

  // Moves one customer to its cheapest position in another route with room for it.
  bool relocate() {
    bool any = false;
    for (std::size_t a = 0; a < routes_.size(); ++a) {
      for (int i = 0; i < static_cast<int>(routes_[a].size()); ++i) {
        const auto& ra = routes_[a];
        const int v = ra[i], p = before(ra, i), s = after(ra, i);
        const double gain = g_.d(p, v) + g_.d(v, s) - g_.d(p, s);
        double best = gain - kEps;
        std::size_t best_b = a;
        int best_pos = -1;
        for (std::size_t b = 0; b < routes_.size(); ++b) {
          if (b == a || routes_[b].empty() || loads_[b] + inst_.demands[v] > inst_.capacity) continue;
          const auto& rb = routes_[b];
          for (int k = 0; k <= static_cast<int>(rb.size()); ++k) {
            const int x = k == 0 ? 0 : rb[k - 1], y = k == static_cast<int>(rb.size()) ? 0 : rb[k];
            const double cost = g_.d(x, v) + g_.d(v, y) - g_.d(x, y);
            if (cost < best) best = cost, best_b = b, best_pos = k;
          }
        }
        if (best_pos < 0) continue;
        routes_[a].erase(routes_[a].begin() + i);
        routes_[best_b].insert(routes_[best_b].begin() + best_pos, v);
        loads_[a] -= inst_.demands[v];
        loads_[best_b] += inst_.demands[v];
        any = true;
        --i;  // position i now holds the next customer
      }
    }
    return any;
  }

  // Exchanges two customers of different routes when both loads still fit.
  bool swap() {
    bool any = false;
    for (std::size_t a = 0; a < routes_.size(); ++a) {
      for (std::size_t b = a + 1; b < routes_.size(); ++b) {
        auto& ra = routes_[a];
        auto& rb = routes_[b];
        for (int i = 0; i < static_cast<int>(ra.size()); ++i) {
          for (int j = 0; j < static_cast<int>(rb.size()); ++j) {
            const int v = ra[i], w = rb[j];
            const int dq = inst_.demands[w] - inst_.demands[v];
            if (loads_[a] + dq > inst_.capacity || loads_[b] - dq > inst_.capacity) continue;
            const int pa = before(ra, i), sa = after(ra, i), pb = before(rb, j), sb = after(rb, j);
            const double delta = g_.d(pa, w) + g_.d(w, sa) - g_.d(pa, v) - g_.d(v, sa) +
                                 g_.d(pb, v) + g_.d(v, sb) - g_.d(pb, w) - g_.d(w, sb);
            if (delta < -kEps) {
              std::swap(ra[i], rb[j]);
              loads_[a] += dq;
              loads_[b] -= dq;
              any = true;
            }
          }
        }
      }
    }
    return any;
  }

  // 2-opt*: routes a = A1 A2 and b = B1 B2 become A1 B2 and B1 A2 (tails exchanged) when both
  // fit and the two new edges are shorter than the two removed ones.
  bool two_opt_star() {
    bool any = false;
    for (std::size_t a = 0; a < routes_.size(); ++a) {
      for (std::size_t b = a + 1; b < routes_.size(); ++b) {
        auto& ra = routes_[a];
        auto& rb = routes_[b];
        if (ra.empty() || rb.empty()) continue;
        // Cut after position i of a (i = -1: before the first) and after j of b.
        int load_a1 = 0;
        for (int i = -1; i < static_cast<int>(ra.size()); ++i) {
          if (i >= 0) load_a1 += inst_.demands[ra[i]];
          const int x1 = i < 0 ? 0 : ra[i], x2 = i + 1 < static_cast<int>(ra.size()) ? ra[i + 1] : 0;
          int load_b1 = 0;
          for (int j = -1; j < static_cast<int>(rb.size()); ++j) {
            if (j >= 0) load_b1 += inst_.demands[rb[j]];
            const int y1 = j < 0 ? 0 : rb[j], y2 = j + 1 < static_cast<int>(rb.size()) ? rb[j + 1] : 0;
            if (x1 == 0 && y1 == 0) continue;  // would just swap the routes' names
            if (load_a1 + (loads_[b] - load_b1) > inst_.capacity || load_b1 + (loads_[a] - load_a1) > inst_.capacity) continue;
            const double delta = g_.d(x1, y2) + g_.d(y1, x2) - g_.d(x1, x2) - g_.d(y1, y2);
            if (delta < -kEps) {
              std::vector<int> na(ra.begin(), ra.begin() + i + 1), nb(rb.begin(), rb.begin() + j + 1);
              na.insert(na.end(), rb.begin() + j + 1, rb.end());
              nb.insert(nb.end(), ra.begin() + i + 1, ra.end());
              ra = std::move(na);
              rb = std::move(nb);
              loads_[a] = problems::cvrp::route_load(inst_, ra);
              loads_[b] = problems::cvrp::route_load(inst_, rb);
              return true;  // indices are stale: the caller starts a new round
            }
          }
        }
      }
    }
    return any;
  }

  const CvrpInstance& inst_;
  const RoutingGeometry& g_;
  Routes routes_;
  std::vector<int> loads_;
};

}  // namespace

problems::Solution cvrp_nearest_neighbor(const problems::Instance& instance, const SolveOptions&) {
  const auto& inst = problems::instance_as<CvrpInstance>(instance, "cvrp");
  const RoutingGeometry& g = inst.geometry;
  const int n = inst.size();
  std::vector<char> visited(n, 0);
  Routes routes;
  int at = 0, load = 0, left = n - 1;
  while (left > 0) {
    int best = -1;
    for (int v = 1; v < n; ++v) {
      if (visited[v] || load + inst.demands[v] > inst.capacity) continue;
      if (best < 0 || g.d(at, v) < g.d(at, best)) best = v;
    }
    if (best < 0) {  // nothing fits: back to the depot, a new route from there
      if (at == 0) throw Error("cvrp_nearest_neighbor: a customer's demand exceeds the capacity of '" + inst.name + "'");
      at = 0, load = 0;
      continue;
    }
    if (at == 0) routes.emplace_back();
    routes.back().push_back(best);
    visited[best] = 1;
    load += inst.demands[best];
    at = best;
    --left;
  }
  return problems::Solution{std::move(routes)};
}

std::vector<std::vector<int>> cvrp_local_search(const CvrpInstance& instance, std::vector<std::vector<int>> routes) {
  return LocalSearch(instance, std::move(routes)).run();
}

}  // namespace falcon::solvers
