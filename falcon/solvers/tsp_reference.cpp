#include "falcon/solvers/tsp_reference.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>

#include "falcon/core/rng.h"
#include "falcon/solvers/routing_heuristics.h"
#include "falcon/solvers/tsp_local_search.h"

namespace falcon::solvers {
namespace {

using problems::RoutingGeometry;
using Clock = std::chrono::steady_clock;

// Every tour through node 0: at most 6! = 720 of them below 8 nodes.
std::vector<int> exhaustive_tour(const RoutingGeometry& g) {
  std::vector<int> tour(g.n), best;
  std::iota(tour.begin(), tour.end(), 0);
  double best_length = std::numeric_limits<double>::infinity();
  do {
    const double length = problems::closed_tour_length(g, tour);
    if (length < best_length) best_length = length, best = tour;
  } while (std::next_permutation(tour.begin() + 1, tour.end()));
  return best;
}

std::vector<int> rotated_to_zero(std::vector<int> tour) {
  std::rotate(tour.begin(), std::find(tour.begin(), tour.end(), 0), tour.end());
  return tour;
}

class Deadline {
 public:
  explicit Deadline(double limit_s) : limit_s_(limit_s), start_(Clock::now()) {}
  bool passed() const {
    return limit_s_ > 0 && std::chrono::duration<double>(Clock::now() - start_).count() >= limit_s_;
  }

 private:
  double limit_s_;
  Clock::time_point start_;
};

}  // namespace

problems::Solution tsp_reference(const problems::tsp::TspInstance& instance, const TspReferenceOptions& options) {
  const RoutingGeometry& g = instance.geometry;
  if (g.n < 8) return problems::Solution::flat(exhaustive_tour(g));

  const Deadline deadline(options.time_limit_s);
  const long kicks = options.kicks > 0 ? options.kicks : static_cast<long>(options.kicks_per_node) * g.n;
  Rng rng(options.seed);
  TspLocalSearch search(g, options.candidates);

  std::vector<int> best;
  double best_length = std::numeric_limits<double>::infinity();
  for (int run = 0; run < std::max(options.runs, 1); ++run) {
    search.reset(nearest_neighbor_tour(g, run == 0 ? 0 : rng.uniform_int(0, g.n - 1)));
    search.optimize();
    std::vector<int> current = search.tour();
    double current_length = search.length();
    std::vector<int> run_best = current;
    double run_best_length = current_length;
    const double slack = options.accept_worse * current_length / g.n;
    for (long k = 0; k < kicks; ++k) {
      if (k % 16 == 0 && deadline.passed()) break;
      search.kick(rng, options.max_kick_segment);
      search.optimize();
      // Accepting equal and slightly worse tours lets the search cross plateaus and leave
      // shallow basins (measured: 0.5 mean edges halves the gap of better-or-equal acceptance).
      if (search.length() <= current_length + slack) {
        current = search.tour();
        current_length = search.length();
        if (current_length < run_best_length) run_best = current, run_best_length = current_length;
      } else {
        search.reset(current, /*activate_all=*/false);  // already a local optimum
      }
    }
    if (run_best_length < best_length) best_length = run_best_length, best = run_best;
    if (deadline.passed()) break;
  }
  return problems::Solution::flat(rotated_to_zero(std::move(best)));
}

problems::Solution tsp_reference_solver(const problems::Instance& instance, const SolveOptions& options) {
  TspReferenceOptions o;
  o.seed = options.seed;
  o.time_limit_s = options.time_limit_s;
  return tsp_reference(problems::instance_as<problems::tsp::TspInstance>(instance, "tsp"), o);
}

}  // namespace falcon::solvers
