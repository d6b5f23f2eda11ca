#include "falcon/solvers/cvrp_reference.h"

#include <gtest/gtest.h>

#include <limits>

#include "falcon/problems/cvrp.h"
#include "falcon/problems/cvrp_files.h"
#include "falcon/solvers/cvrp_heuristics.h"
#include "tests/benchmark_files.h"

namespace falcon::solvers {
namespace {

using problems::Solution;
using problems::cvrp::CvrpInstance;

std::shared_ptr<CvrpInstance> generated(int n, std::uint64_t seed, int capacity = 0, const std::string& distribution = "uniform") {
  problems::GenerateOptions opt;
  opt.n = n;
  opt.distribution = distribution;
  if (capacity > 0) opt.params["capacity"] = std::to_string(capacity);
  return problems::cvrp::generate(opt, seed);
}

double length(const CvrpInstance& inst, const Solution& s) { return problems::cvrp::total_length(inst, s); }

// Optimum over any number of routes, by dynamic programming over customer subsets: the shortest
// closed tour of each subset that fits one vehicle (Held-Karp), then the best partition.
double brute_force_optimum(const CvrpInstance& inst) {
  const auto& g = inst.geometry;
  const int k = inst.size() - 1, full = 1 << k;
  const double inf = std::numeric_limits<double>::infinity();
  // path[S][j]: shortest depot -> (all of S) ending at customer j + 1 (j in S).
  std::vector<std::vector<double>> path(full, std::vector<double>(k, inf));
  for (int j = 0; j < k; ++j) path[1 << j][j] = g.d(0, j + 1);
  std::vector<double> tour(full, inf);
  for (int s = 1; s < full; ++s) {
    int load = 0;
    for (int j = 0; j < k; ++j) load += (s >> j & 1) ? inst.demands[j + 1] : 0;
    if (load > inst.capacity) continue;
    for (int j = 0; j < k; ++j) {
      if (!(s >> j & 1) || path[s][j] == inf) continue;
      tour[s] = std::min(tour[s], path[s][j] + g.d(j + 1, 0));
      for (int l = 0; l < k; ++l) {
        if (s >> l & 1) continue;
        double& next = path[s | 1 << l][l];
        next = std::min(next, path[s][j] + g.d(j + 1, l + 1));
      }
    }
  }
  std::vector<double> best(full, inf);
  best[0] = 0;
  for (int s = 1; s < full; ++s) {
    const int low = s & -s;
    for (int t = s; t > 0; t = (t - 1) & s) {
      if ((t & low) && tour[t] < inf && best[s ^ t] < inf) best[s] = std::min(best[s], tour[t] + best[s ^ t]);
    }
  }
  return best[full - 1];
}

TEST(CvrpReference, IsRegistered) {
  using Fn = Solution (*)(const problems::Instance&, const SolveOptions&);
  const Fn* fn = solver_by_name("cvrp", "reference").solve.target<Fn>();
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(*fn, &cvrp_reference_solver);
}

TEST(CvrpReference, OptimalOnSmallInstancesByBruteForce) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    // Tight capacities force three to five routes among 9 customers.
    const auto inst = generated(10, seed, seed % 2 ? 12 : 20, seed % 3 ? "uniform" : "gm");
    const Solution s = cvrp_reference_solver(*inst, {seed, 0});
    ASSERT_TRUE(problems::cvrp::feasible(*inst, s)) << inst->name;
    const double opt = brute_force_optimum(*inst);
    EXPECT_NEAR(length(*inst, s), opt, 1e-9 * opt) << inst->name;
  }
}

TEST(CvrpReference, SameSeedSameSolution) {
  const auto inst = generated(50, 3, 0, "gm");
  const Solution a = cvrp_reference_solver(*inst, {7, 0});
  EXPECT_EQ(a, cvrp_reference_solver(*inst, {7, 0}));
  EXPECT_TRUE(problems::cvrp::feasible(*inst, a));
}

TEST(CvrpReference, BeatsTheLocalSearchBaseline) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto inst = generated(40, seed);
    const Solution s = cvrp_reference_solver(*inst, {1, 0});
    ASSERT_TRUE(problems::cvrp::feasible(*inst, s));
    const Solution ls{cvrp_local_search(*inst, cvrp_nearest_neighbor(*inst, {}).lists)};
    EXPECT_LE(length(*inst, s), length(*inst, ls) + 1e-9);
  }
}

TEST(CvrpReference, ReachesProvenOptimaOnCvrplibFiles) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  // Instances whose optimum with a free fleet equals CVRPLIB's (k-route) value, so it is a
  // lower bound too; each takes well under a second.
  const std::pair<const char*, double> cases[] = {{"E-n13-k4", 247}, {"P-n16-k8", 450}, {"A-n32-k5", 784}};
  for (const auto& [name, optimum] : cases) {
    const auto inst = problems::cvrp::read_file(std::string(FALCON_BENCHMARKS_DIR) + "/cvrp/instances/" + name + ".vrp");
    const Solution s = cvrp_reference_solver(*inst, {1, 0});
    ASSERT_TRUE(problems::cvrp::feasible(*inst, s)) << name;
    EXPECT_GE(length(*inst, s), optimum - 1e-9) << name;
    EXPECT_NEAR(length(*inst, s), optimum, 1e-9) << name;
  }
}

TEST(CvrpReference, TinyInstancesAndTimeCap) {
  auto inst = std::make_shared<CvrpInstance>();
  inst->geometry = problems::RoutingGeometry::euclidean({{0, 0}, {1, 1}});
  inst->demands = {0, 5};
  inst->capacity = 5;
  EXPECT_EQ(cvrp_reference(*inst, {}), (Solution{{{1}}}));
  // A wall-clock cap that triggers at once still returns a feasible solution.
  const auto big = generated(60, 1);
  CvrpReferenceOptions o;
  o.time_limit_s = 1e-6;
  EXPECT_TRUE(problems::cvrp::feasible(*big, cvrp_reference(*big, o)));
}

}  // namespace
}  // namespace falcon::solvers
