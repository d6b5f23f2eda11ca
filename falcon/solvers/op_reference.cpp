#include "falcon/solvers/op_reference.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include "falcon/core/rng.h"
#include "falcon/solvers/op_route_search.h"

namespace falcon::solvers {
namespace {

using problems::op::OpInstance;

constexpr double kDiversityWeight = 0.5;  // of the diversity rank against the quality rank
constexpr int kClosest = 3;               // neighbours averaged in the diversity measure

class Memetic {
 public:
  Memetic(const OpInstance& instance, const OpReferenceOptions& options)
      : search_(instance), opt_(options), n_(instance.size()), rng_(options.seed), start_(std::chrono::steady_clock::now()) {}

  std::vector<int> solve(long children) {
    best_ = search_.make({});
    search_.local_search(best_, 0, rng_);
    for (int i = 0; i < 2 * opt_.population && (i == 0 || !out_of_time()); ++i) {
      OpRoute r;
      if (i % 2 == 0) {  // greedy fill, the first one plain
        r = search_.make({});
        search_.local_search(r, i == 0 ? 0.0 : 3.0, rng_);
      } else {  // everything in a random order, shortened, then dropped into the budget
        std::vector<int> all = search_.candidates();
        rng_.shuffle(all);
        r = search_.make(std::move(all));
        search_.shorten(r);
        search_.drop(r, 1.0, rng_);
        search_.local_search(r, 0, rng_);
      }
      iterate(r);
      add(std::move(r));
    }
    for (long it = 0; it < children && !out_of_time(); ++it) {
      const OpRoute& a = tournament();
      const OpRoute& b = tournament();
      OpRoute child = a;
      std::vector<char> in(n_, 0);
      for (int v : a.nodes) in[v] = 1;
      std::vector<int> extra;
      for (int v : b.nodes) {
        if (!in[v]) extra.push_back(v);
      }
      search_.insert_cheapest(child, extra);
      search_.shorten(child);
      search_.drop(child, 0.3, rng_);
      search_.local_search(child, 0, rng_);
      iterate(child);
      add(std::move(child));
    }
    return best_.nodes;
  }

 private:
  bool out_of_time() const {
    return opt_.time_limit_s > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >= opt_.time_limit_s;
  }

  // A short iterated local search: perturb, repair by local search, keep when not worse.
  void iterate(OpRoute& r) {
    for (int t = 0; t < opt_.ils_steps; ++t) {
      OpRoute c = r;
      search_.perturb(c, rng_);
      search_.local_search(c, 0.5, rng_);
      if (!search_.better(r, c)) r = std::move(c);
    }
  }

  const OpRoute& tournament() {
    const OpRoute& a = pop_[rng_.uniform_int(0, static_cast<int>(pop_.size()) - 1)];
    const OpRoute& b = pop_[rng_.uniform_int(0, static_cast<int>(pop_.size()) - 1)];
    return search_.better(b, a) ? b : a;
  }

  // Share of nodes visited by exactly one of the two routes.
  double distance(const std::vector<char>& a, const std::vector<char>& b) const {
    int differ = 0, total = 0;
    for (int v : search_.candidates()) differ += a[v] != b[v], total += a[v] + b[v];
    return total == 0 ? 0.0 : static_cast<double>(differ) / total;
  }

  void add(OpRoute r) {
    if (search_.better(r, best_)) best_ = r;
    for (const OpRoute& o : pop_) {
      if (search_.same_value(o, r)) return;  // a clone, or as good as one
    }
    pop_.push_back(std::move(r));
    if (static_cast<int>(pop_.size()) > opt_.population) remove_worst();
  }

  void remove_worst() {
    const int k = static_cast<int>(pop_.size());
    std::vector<int> by_quality(k);
    for (int i = 0; i < k; ++i) by_quality[i] = i;
    std::stable_sort(by_quality.begin(), by_quality.end(), [&](int a, int b) { return search_.better(pop_[a], pop_[b]); });
    std::vector<std::vector<char>> visited(k, std::vector<char>(n_, 0));
    for (int i = 0; i < k; ++i) {
      for (int v : pop_[i].nodes) visited[i][v] = 1;
    }
    std::vector<double> closeness(k);  // mean distance to the closest others, negated: low = diverse
    for (int i = 0; i < k; ++i) {
      std::vector<double> d;
      for (int j = 0; j < k; ++j) {
        if (j != i) d.push_back(distance(visited[i], visited[j]));
      }
      std::sort(d.begin(), d.end());
      const int c = std::min<int>(kClosest, d.size());
      double sum = 0;
      for (int t = 0; t < c; ++t) sum += d[t];
      closeness[i] = -sum / c;
    }
    std::vector<int> by_diversity = by_quality;
    std::stable_sort(by_diversity.begin(), by_diversity.end(), [&](int a, int b) { return closeness[a] < closeness[b]; });
    std::vector<double> fitness(k, 0);
    for (int r = 0; r < k; ++r) {
      fitness[by_quality[r]] += static_cast<double>(r) / (k - 1);
      fitness[by_diversity[r]] += kDiversityWeight * r / (k - 1);
    }
    int worst = -1;
    for (int i = 0; i < k; ++i) {
      if (i != by_quality[0] && (worst < 0 || fitness[i] > fitness[worst])) worst = i;
    }
    pop_.erase(pop_.begin() + worst);
  }

  OpRouteSearch search_;
  const OpReferenceOptions& opt_;
  const int n_;
  Rng rng_;
  std::chrono::steady_clock::time_point start_;
  std::vector<OpRoute> pop_;
  OpRoute best_;
};

}  // namespace

problems::Solution op_reference(const OpInstance& instance, const OpReferenceOptions& options) {
  problems::op::validate(instance);
  const long children = options.children > 0 ? options.children : kDefaultOpChildren;
  return problems::Solution::flat(Memetic(instance, options).solve(children));
}

problems::Solution op_reference_solver(const problems::Instance& instance, const SolveOptions& options) {
  OpReferenceOptions o;
  o.seed = options.seed;
  o.time_limit_s = options.time_limit_s;
  return op_reference(problems::instance_as<OpInstance>(instance, "op"), o);
}

}  // namespace falcon::solvers
