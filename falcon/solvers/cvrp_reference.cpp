#include "falcon/solvers/cvrp_reference.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <numeric>
#include <set>

#include "falcon/core/rng.h"
#include "falcon/solvers/cvrp_granular_search.h"
#include "falcon/solvers/cvrp_split.h"

namespace falcon::solvers {
namespace {

using problems::cvrp::CvrpInstance;
using Routes = std::vector<std::vector<int>>;

constexpr double kEps = 1e-9;

struct Individual {
  long id = 0;
  std::vector<int> tour;  // giant tour: the routes in polar order of their barycentres
  Routes routes;
  double distance = 0;
  long excess = 0;  // load above capacity, summed over routes
  double penalized = 0;
  bool feasible() const { return excess == 0; }
  std::vector<int> succ, pred;                     // per customer; 0 = the depot
  std::multiset<std::pair<double, long>> proximity;  // (broken-pairs distance, id) to the others
  double biased_fitness = 0;
};

class Hgs {
 public:
  Hgs(const CvrpInstance& instance, const CvrpReferenceOptions& options)
      : inst_(instance), opt_(options), nc_(instance.size() - 1), rng_(options.seed),
        search_(instance, options.neighbours), start_(std::chrono::steady_clock::now()) {
    double max_d = 0;
    int max_q = 1;
    for (double d : inst_.geometry.distance) max_d = std::max(max_d, d);
    for (int q : inst_.demands) max_q = std::max(max_q, q);
    penalty_scale_ = std::max(max_d / max_q, 1e-9);
    penalty_ = penalty_scale_;
    feasible_history_.assign(100, true);
  }

  Routes solve() {
    const int stall_limit = opt_.stall_iterations > 0 ? opt_.stall_iterations : default_cvrp_stall_iterations(inst_.size());
    const long max_iterations = opt_.max_iterations > 0 ? opt_.max_iterations : 5L * stall_limit;
    for (int i = 0; i < 4 * opt_.population && (i == 0 || !out_of_time()); ++i) {
      std::vector<int> tour(nc_);
      std::iota(tour.begin(), tour.end(), 1);
      rng_.shuffle(tour);
      improve_and_add(tour);
    }
    int stall = 0;
    for (long it = 1; it <= max_iterations && stall < stall_limit && !out_of_time(); ++it) {
      const bool improved = improve_and_add(crossover(tournament(), tournament()));
      stall = improved ? 0 : stall + 1;
      if (it % 100 == 0) manage_penalty();
    }
    if (best_) return best_->routes;
    // Never feasible (only when a limit stopped it very early): the best infeasible, repaired.
    const Individual& least = *std::min_element(infeasible_.begin(), infeasible_.end(), [](const auto& a, const auto& b) {
      return a->penalized < b->penalized;
    })->get();
    return problems::cvrp::repair_routes(inst_, problems::Solution{least.routes}).lists;
  }

 private:
  using SubPopulation = std::vector<std::unique_ptr<Individual>>;

  bool out_of_time() const {
    if (opt_.time_limit_s <= 0) return false;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >= opt_.time_limit_s;
  }

  // Split, descend, add; repair half the infeasible results at ten times the penalty.
  // True when the best feasible solution improved.
  bool improve_and_add(const std::vector<int>& tour) {
    Individual ind;
    ind.routes = search_.run(split_giant_tour(inst_, tour, SplitOptions{penalty_, 1.5}), penalty_, rng_);
    evaluate(ind);
    bool improved = add(ind, true);
    if (!ind.feasible() && rng_.uniform_int(0, 1) == 0) {
      ind.routes = search_.run(ind.routes, penalty_ * 10, rng_);
      evaluate(ind);
      if (ind.feasible()) improved = add(ind, false) || improved;
    }
    return improved;
  }

  void evaluate(Individual& ind) const {
    const auto& g = inst_.geometry;
    ind.distance = 0, ind.excess = 0;
    ind.succ.assign(nc_ + 1, 0);
    ind.pred.assign(nc_ + 1, 0);
    // Polar order of the routes' barycentres makes the giant tour a sensible crossover input.
    std::vector<std::pair<double, int>> order;
    for (int r = 0; r < static_cast<int>(ind.routes.size()); ++r) {
      const auto& route = ind.routes[r];
      long load = 0;
      double sx = 0, sy = 0;
      for (std::size_t i = 0; i < route.size(); ++i) {
        const int c = route[i];
        load += inst_.demands[c];
        ind.distance += g.d(i == 0 ? 0 : route[i - 1], c);
        ind.pred[c] = i == 0 ? 0 : route[i - 1];
        ind.succ[c] = i + 1 == route.size() ? 0 : route[i + 1];
        if (!g.coords.empty()) sx += g.coords[c].x, sy += g.coords[c].y;
      }
      ind.distance += g.d(route.back(), 0);
      ind.excess += std::max(0L, load - inst_.capacity);
      double angle = r;
      if (!g.coords.empty()) angle = std::atan2(sy / route.size() - g.coords[0].y, sx / route.size() - g.coords[0].x);
      order.emplace_back(angle, r);
    }
    std::sort(order.begin(), order.end());
    ind.tour.clear();
    for (const auto& [angle, r] : order) ind.tour.insert(ind.tour.end(), ind.routes[r].begin(), ind.routes[r].end());
    ind.penalized = ind.distance + penalty_ * static_cast<double>(ind.excess);
  }

  double broken_pairs(const Individual& a, const Individual& b) const {
    int diff = 0;
    for (int c = 1; c <= nc_; ++c) {
      if (a.succ[c] != b.succ[c] && a.succ[c] != b.pred[c]) ++diff;
      if (a.pred[c] == 0 && b.pred[c] != 0 && b.succ[c] != 0) ++diff;
    }
    return static_cast<double>(diff) / nc_;
  }

  static double mean_closest(const Individual& ind, int k) {
    k = std::min<int>(k, ind.proximity.size());
    if (k == 0) return 0;
    double sum = 0;
    auto it = ind.proximity.begin();
    for (int i = 0; i < k; ++i, ++it) sum += it->first;
    return sum / k;
  }

  void update_biased_fitness(SubPopulation& pop) const {
    const int size = static_cast<int>(pop.size());
    if (size == 1) pop[0]->biased_fitness = 0;
    if (size <= 1) return;
    std::vector<std::pair<double, int>> ranking;  // most diverse first
    for (int i = 0; i < size; ++i) ranking.emplace_back(-mean_closest(*pop[i], opt_.close), i);
    std::sort(ranking.begin(), ranking.end());
    for (int i = 0; i < size; ++i) {
      const double div_rank = static_cast<double>(i) / (size - 1);
      const double fit_rank = static_cast<double>(ranking[i].second) / (size - 1);  // pop is sorted by cost
      pop[ranking[i].second]->biased_fitness =
          size <= opt_.elite ? fit_rank : fit_rank + (1.0 - static_cast<double>(opt_.elite) / size) * div_rank;
    }
  }

  // Removes the worst biased fitness, clones first; never the best (index 0).
  void remove_worst(SubPopulation& pop) {
    update_biased_fitness(pop);
    int worst = -1;
    bool worst_clone = false;
    double worst_fitness = -std::numeric_limits<double>::infinity();
    for (int i = 1; i < static_cast<int>(pop.size()); ++i) {
      const bool clone = mean_closest(*pop[i], 1) < kEps;
      if ((clone && !worst_clone) || (clone == worst_clone && pop[i]->biased_fitness > worst_fitness)) {
        worst = i, worst_clone = clone, worst_fitness = pop[i]->biased_fitness;
      }
    }
    const long id = pop[worst]->id;
    pop.erase(pop.begin() + worst);
    for (auto& other : pop) {
      for (auto it = other->proximity.begin(); it != other->proximity.end(); ++it) {
        if (it->second == id) {
          other->proximity.erase(it);
          break;
        }
      }
    }
  }

  bool add(const Individual& ind, bool count_feasibility) {
    if (count_feasibility) {
      feasible_history_.push_back(ind.feasible());
      feasible_history_.pop_front();
    }
    SubPopulation& pop = ind.feasible() ? feasible_ : infeasible_;
    auto copy = std::make_unique<Individual>(ind);
    copy->id = next_id_++;
    copy->proximity.clear();
    for (auto& other : pop) {
      const double d = broken_pairs(*copy, *other);
      other->proximity.emplace(d, copy->id);
      copy->proximity.emplace(d, other->id);
    }
    int place = static_cast<int>(pop.size());
    while (place > 0 && pop[place - 1]->penalized > ind.penalized - kEps) --place;
    pop.insert(pop.begin() + place, std::move(copy));
    if (static_cast<int>(pop.size()) > opt_.population + opt_.generation) {
      while (static_cast<int>(pop.size()) > opt_.population) remove_worst(pop);
    }
    if (ind.feasible() && (!best_ || ind.distance < best_->distance - improvement_eps())) {
      best_ = std::make_unique<Individual>(ind);
      return true;
    }
    return false;
  }

  double improvement_eps() const { return 1e-9 * std::max(1.0, best_ ? best_->distance : 1.0); }

  const Individual& tournament() {
    const int total = static_cast<int>(feasible_.size() + infeasible_.size());
    auto pick = [&]() -> Individual& {
      const int k = rng_.uniform_int(0, total - 1);
      return k < static_cast<int>(feasible_.size()) ? *feasible_[k] : *infeasible_[k - feasible_.size()];
    };
    Individual& a = pick();
    Individual& b = pick();
    update_biased_fitness(feasible_);
    update_biased_fitness(infeasible_);
    return a.biased_fitness < b.biased_fitness ? a : b;
  }

  // Ordered crossover: a cyclic slice of parent a, the rest in parent b's order after it.
  std::vector<int> crossover(const Individual& a, const Individual& b) {
    std::vector<int> child(nc_);
    if (nc_ < 2) return a.tour;
    const int start = rng_.uniform_int(0, nc_ - 1);
    int end = rng_.uniform_int(0, nc_ - 2);
    if (end >= start) ++end;
    std::vector<char> taken(nc_ + 1, 0);
    int j = start;
    for (; j % nc_ != (end + 1) % nc_; ++j) {
      child[j % nc_] = a.tour[j % nc_];
      taken[child[j % nc_]] = 1;
    }
    for (int i = 1; i <= nc_; ++i) {
      const int c = b.tour[(end + i) % nc_];
      if (!taken[c]) child[j++ % nc_] = c;
    }
    return child;
  }

  // Keeps about target_feasible of the improved offspring feasible.
  void manage_penalty() {
    const double fraction =
        static_cast<double>(std::count(feasible_history_.begin(), feasible_history_.end(), true)) / feasible_history_.size();
    if (fraction < opt_.target_feasible - 0.05) penalty_ = std::min(penalty_ * 1.2, penalty_scale_ * 1e5);
    else if (fraction > opt_.target_feasible + 0.05) penalty_ = std::max(penalty_ * 0.85, penalty_scale_ * 1e-3);
    for (auto& ind : infeasible_) ind->penalized = ind->distance + penalty_ * static_cast<double>(ind->excess);
    std::stable_sort(infeasible_.begin(), infeasible_.end(), [](const auto& x, const auto& y) { return x->penalized < y->penalized; });
  }

  const CvrpInstance& inst_;
  const CvrpReferenceOptions& opt_;
  const int nc_;
  Rng rng_;
  CvrpGranularSearch search_;
  std::chrono::steady_clock::time_point start_;
  double penalty_scale_ = 1, penalty_ = 1;
  std::deque<bool> feasible_history_;
  SubPopulation feasible_, infeasible_;
  std::unique_ptr<Individual> best_;
  long next_id_ = 0;
};

}  // namespace

int default_cvrp_stall_iterations(int n) {
  return std::clamp(20 * n, 500, 2000);
}

problems::Solution cvrp_reference(const CvrpInstance& instance, const CvrpReferenceOptions& options) {
  problems::cvrp::validate(instance);  // at least one customer
  if (instance.size() == 2) return problems::Solution{{{1}}};
  return problems::Solution{Hgs(instance, options).solve()};
}

problems::Solution cvrp_reference_solver(const problems::Instance& instance, const SolveOptions& options) {
  CvrpReferenceOptions o;
  o.seed = options.seed;
  o.time_limit_s = options.time_limit_s;
  return cvrp_reference(problems::instance_as<CvrpInstance>(instance, "cvrp"), o);
}

}  // namespace falcon::solvers
