#include "falcon/solvers/aco.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"
#include "falcon/solvers/cvrp_heuristics.h"
#include "falcon/solvers/routing_heuristics.h"

namespace falcon::solvers {
namespace {

using problems::RoutingGeometry;
using Clock = std::chrono::steady_clock;

constexpr double kEps = 1e-9;
constexpr int kTspIterations = 3000;
constexpr int kCvrpIterations = 1500;

class Budget {
 public:
  Budget(const AcoOptions& o, int default_iterations)
      : iterations_(o.iterations > 0 ? o.iterations : default_iterations), limit_s_(o.time_limit_s), start_(Clock::now()) {}
  bool more(int done) const {
    if (limit_s_ > 0) return std::chrono::duration<double>(Clock::now() - start_).count() < limit_s_;
    return done < iterations_;
  }

 private:
  int iterations_;
  double limit_s_;
  Clock::time_point start_;
};

// MAX-MIN pheromone trails on symmetric edges plus the per-iteration choice weights
// tau^alpha * (1/d)^beta.
class Trails {
 public:
  Trails(const RoutingGeometry& g, const AcoOptions& o)
      : n_(g.n), alpha_(o.alpha), rho_(o.rho), tau_(static_cast<std::size_t>(n_) * n_), heuristic_(tau_.size()), weight_(tau_.size()) {
    // Coincident nodes (d = 0) get the heuristic of a tiny positive distance rather than infinity.
    double mean = 0;
    for (double d : g.distance) mean += d;
    const double tiny = std::max(1e-12, 1e-6 * mean / std::max<double>(1.0, static_cast<double>(g.distance.size())));
    for (std::size_t e = 0; e < tau_.size(); ++e) heuristic_[e] = std::pow(1.0 / std::max(g.distance[e], tiny), o.beta);
  }

  void set_bounds(double best_length) {
    tau_max_ = 1.0 / (rho_ * std::max(best_length, kEps));
    tau_min_ = tau_max_ / (2.0 * n_);
  }
  void reset() { std::fill(tau_.begin(), tau_.end(), tau_max_); }

  void refresh_weights() {
    for (std::size_t e = 0; e < tau_.size(); ++e) {
      weight_[e] = (alpha_ == 1.0 ? tau_[e] : std::pow(tau_[e], alpha_)) * heuristic_[e];
    }
  }
  double weight(int i, int j) const { return weight_[static_cast<std::size_t>(i) * n_ + j]; }

  // Evaporation everywhere, then the deposit 1/length on `edges`, clamped to [tau_min, tau_max].
  void update(const std::vector<std::pair<int, int>>& edges, double length) {
    for (double& t : tau_) t *= 1.0 - rho_;
    const double deposit = 1.0 / std::max(length, kEps);
    for (const auto& [i, j] : edges) {
      tau_[static_cast<std::size_t>(i) * n_ + j] += deposit;
      if (i != j) tau_[static_cast<std::size_t>(j) * n_ + i] += deposit;
    }
    for (double& t : tau_) t = std::clamp(t, tau_min_, tau_max_);
  }

 private:
  int n_;
  double alpha_, rho_;
  double tau_max_ = 1, tau_min_ = 0;
  std::vector<double> tau_, heuristic_, weight_;
};

// Random-proportional choice among the allowed candidates of `from`; when none is allowed, the
// allowed node of largest weight over all nodes (MMAS's fallback); -1 when nothing is allowed.
template <class Allowed>
int choose_next(const Trails& trails, const std::vector<int>& candidates, int from, int first, int n, Rng& rng,
                std::vector<double>& scratch, Allowed allowed) {
  scratch.clear();
  double total = 0;
  for (int c : candidates) {
    const double w = allowed(c) ? trails.weight(from, c) : 0.0;
    scratch.push_back(w);
    total += w;
  }
  if (total > 0) {
    double r = rng.uniform() * total;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      r -= scratch[k];
      if (r < 0 && scratch[k] > 0) return candidates[k];
    }
    for (std::size_t k = candidates.size(); k-- > 0;) {  // rounding left r >= 0: the last allowed one
      if (scratch[k] > 0) return candidates[k];
    }
  }
  int best = -1;
  for (int v = first; v < n; ++v) {
    if (v != from && allowed(v) && (best < 0 || trails.weight(from, v) > trails.weight(from, best))) best = v;
  }
  return best;
}

// ---- TSP ----------------------------------------------------------------------------------------

// 2-opt with neighbour lists and don't-look bits (Bentley 1992) on a closed tour.
class TwoOpt {
 public:
  TwoOpt(const RoutingGeometry& g, const std::vector<std::vector<int>>& candidates) : g_(g), cand_(candidates) {}

  void run(std::vector<int>& tour) {
    const int n = static_cast<int>(tour.size());
    if (n < 4) return;
    pos_.assign(n, 0);
    for (int i = 0; i < n; ++i) pos_[tour[i]] = i;
    std::vector<char> queued(n, 1);
    std::vector<int> queue(tour.begin(), tour.end());
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int a = queue[head];
      queued[a] = 0;
      if (improve(tour, a)) {
        for (int v : touched_) {
          if (!queued[v]) queued[v] = 1, queue.push_back(v);
        }
      }
    }
  }

 private:
  int succ(const std::vector<int>& t, int v) const { return t[(pos_[v] + 1) % t.size()]; }
  int pred(const std::vector<int>& t, int v) const { return t[(pos_[v] + t.size() - 1) % t.size()]; }

  bool improve(std::vector<int>& t, int a) {
    for (int dir = 0; dir < 2; ++dir) {
      const int an = dir == 0 ? succ(t, a) : pred(t, a);
      const double d_a = g_.d(a, an);
      for (int c : cand_[a]) {
        const double d_ac = g_.d(a, c);
        if (d_ac >= d_a) break;  // lists are sorted: no later candidate can gain
        const int cn = dir == 0 ? succ(t, c) : pred(t, c);
        if (c == an || cn == a) continue;
        const double delta = d_ac + g_.d(an, cn) - d_a - g_.d(c, cn);
        if (delta < -kEps) {
          // succ: a an .. c cn -> a c .. an cn (reverse an..c); pred: cn c .. an a -> cn an .. c a.
          if (dir == 0) reverse(t, pos_[an], pos_[c]);
          else reverse(t, pos_[c], pos_[an]);
          touched_ = {a, an, c, cn};
          return true;
        }
      }
    }
    return false;
  }

  // Reverses the cyclic segment t[i..j]; the shorter of it and its complement, which gives the
  // same cycle.
  void reverse(std::vector<int>& t, int i, int j) {
    const int n = static_cast<int>(t.size());
    int len = ((j - i + n) % n) + 1;
    if (2 * len > n) {
      const int ni = (j + 1) % n, nj = (i + n - 1) % n;
      i = ni, j = nj, len = n - len;
    }
    for (int k = 0; k < len / 2; ++k) {
      const int p = (i + k) % n, q = (j - k + n) % n;
      std::swap(t[p], t[q]);
      pos_[t[p]] = p;
      pos_[t[q]] = q;
    }
  }

  const RoutingGeometry& g_;
  const std::vector<std::vector<int>>& cand_;
  std::vector<int> pos_;
  std::vector<int> touched_;
};

std::vector<std::pair<int, int>> tour_edges(const std::vector<int>& tour) {
  std::vector<std::pair<int, int>> edges;
  for (std::size_t i = 0; i < tour.size(); ++i) edges.emplace_back(tour[i], tour[(i + 1) % tour.size()]);
  return edges;
}

// ---- CVRP ---------------------------------------------------------------------------------------

using Routes = std::vector<std::vector<int>>;

std::vector<std::pair<int, int>> route_edges(const Routes& routes) {
  std::vector<std::pair<int, int>> edges;
  for (const auto& r : routes) {
    int prev = 0;
    for (int v : r) edges.emplace_back(prev, v), prev = v;
    edges.emplace_back(prev, 0);
  }
  return edges;
}

int default_ants(int n) { return std::min(n, 30); }

}  // namespace

problems::Solution tsp_aco(const problems::tsp::TspInstance& instance, const AcoOptions& options) {
  const RoutingGeometry& g = instance.geometry;
  const int n = g.n;
  if (n <= 3) {
    std::vector<int> tour(n);
    std::iota(tour.begin(), tour.end(), 0);
    return problems::Solution::flat(std::move(tour));
  }
  Rng rng(options.seed);
  const auto cand = problems::nearest_neighbours(g, std::max(options.candidates, 1));
  TwoOpt two_opt(g, cand);
  auto polish = [&](std::vector<int>& t) {
    if (options.local_search) two_opt.run(t);
  };

  std::vector<int> best = tsp_nearest_neighbor(instance, SolveOptions{}).items();
  polish(best);
  double best_length = problems::closed_tour_length(g, best);
  Trails trails(g, options);
  trails.set_bounds(best_length);
  trails.reset();

  const int ants = options.ants > 0 ? options.ants : default_ants(n);
  std::vector<char> visited(n);
  std::vector<double> scratch;
  Budget budget(options, kTspIterations);
  for (int it = 0, stale = 0; budget.more(it); ++it) {
    trails.refresh_weights();
    std::vector<int> iter_best;
    double iter_length = 0;
    for (int a = 0; a < ants; ++a) {
      std::fill(visited.begin(), visited.end(), 0);
      std::vector<int> tour = {rng.uniform_int(0, n - 1)};
      visited[tour[0]] = 1;
      for (int step = 1; step < n; ++step) {
        const int next = choose_next(trails, cand[tour.back()], tour.back(), 0, n, rng, scratch, [&](int v) { return !visited[v]; });
        visited[next] = 1;
        tour.push_back(next);
      }
      const double length = problems::closed_tour_length(g, tour);
      if (iter_best.empty() || length < iter_length) iter_best = std::move(tour), iter_length = length;
    }
    polish(iter_best);
    iter_length = problems::closed_tour_length(g, iter_best);
    if (iter_length < best_length - kEps) {
      best = iter_best, best_length = iter_length, stale = 0;
      trails.set_bounds(best_length);
    } else if (++stale >= options.restart_after) {
      trails.reset();
      stale = 0;
      continue;
    }
    // Mostly the iteration's best (exploration), every fifth time the best so far.
    if (it % 5 == 4) trails.update(tour_edges(best), best_length);
    else trails.update(tour_edges(iter_best), iter_length);
  }
  // Start the written tour at node 0, as the nearest-neighbour baseline does.
  std::rotate(best.begin(), std::find(best.begin(), best.end(), 0), best.end());
  return problems::Solution::flat(std::move(best));
}

problems::Solution cvrp_aco(const problems::cvrp::CvrpInstance& instance, const AcoOptions& options) {
  const RoutingGeometry& g = instance.geometry;
  const int n = instance.size();
  Rng rng(options.seed);
  const auto cand = problems::nearest_neighbours(g, std::max(options.candidates, 1), /*first=*/1);
  auto polish = [&](Routes r) { return options.local_search ? cvrp_local_search(instance, std::move(r)) : r; };
  auto length_of = [&](const Routes& r) { return problems::cvrp::total_length(instance, problems::Solution{r}); };

  Routes best = polish(cvrp_nearest_neighbor(instance, SolveOptions{}).lists);
  double best_length = length_of(best);
  Trails trails(g, options);
  trails.set_bounds(best_length);
  trails.reset();

  const int ants = options.ants > 0 ? options.ants : default_ants(n);
  std::vector<char> visited(n);
  std::vector<double> scratch;
  Budget budget(options, kCvrpIterations);
  for (int it = 0, stale = 0; budget.more(it); ++it) {
    trails.refresh_weights();
    Routes iter_best;
    double iter_length = 0;
    for (int a = 0; a < ants; ++a) {
      std::fill(visited.begin(), visited.end(), 0);
      Routes routes;
      int at = 0, load = 0;
      for (int left = n - 1; left > 0;) {
        const auto fits = [&](int v) { return !visited[v] && load + instance.demands[v] <= instance.capacity; };
        const int next = choose_next(trails, cand[at], at, 1, n, rng, scratch, fits);
        if (next < 0) {
          if (at == 0) throw Error("cvrp_aco: a customer's demand exceeds the capacity of '" + instance.name + "'");
          at = 0, load = 0;  // vehicle full: back to the depot
          continue;
        }
        if (at == 0) routes.emplace_back();
        routes.back().push_back(next);
        visited[next] = 1;
        load += instance.demands[next];
        at = next;
        --left;
      }
      const double length = length_of(routes);
      if (iter_best.empty() || length < iter_length) iter_best = std::move(routes), iter_length = length;
    }
    iter_best = polish(std::move(iter_best));
    iter_length = length_of(iter_best);
    if (iter_length < best_length - kEps) {
      best = iter_best, best_length = iter_length, stale = 0;
      trails.set_bounds(best_length);
    } else if (++stale >= options.restart_after) {
      trails.reset();
      stale = 0;
      continue;
    }
    if (it % 5 == 4) trails.update(route_edges(best), best_length);
    else trails.update(route_edges(iter_best), iter_length);
  }
  return problems::Solution{std::move(best)};
}

problems::Solution tsp_aco_solver(const problems::Instance& instance, const SolveOptions& options) {
  AcoOptions aco;
  aco.seed = options.seed;
  aco.time_limit_s = options.time_limit_s;
  return tsp_aco(problems::instance_as<problems::tsp::TspInstance>(instance, "tsp"), aco);
}

problems::Solution cvrp_aco_solver(const problems::Instance& instance, const SolveOptions& options) {
  AcoOptions aco;
  aco.seed = options.seed;
  aco.time_limit_s = options.time_limit_s;
  return cvrp_aco(problems::instance_as<problems::cvrp::CvrpInstance>(instance, "cvrp"), aco);
}

}  // namespace falcon::solvers
