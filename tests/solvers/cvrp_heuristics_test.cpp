#include "falcon/solvers/cvrp_heuristics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "falcon/problems/cvrp_files.h"
#include "falcon/solvers/solver.h"
#include "tests/benchmark_files.h"

namespace falcon::solvers {
namespace {

using problems::Solution;
using problems::cvrp::CvrpInstance;

// Depot (0,0); customers 1:(0,1) q4, 2:(1,1) q6, 3:(1,0) q5, 4:(2,0) q5; capacity 10.
std::shared_ptr<CvrpInstance> tiny() {
  auto inst = std::make_shared<CvrpInstance>();
  inst->geometry = problems::RoutingGeometry::euclidean({{0, 0}, {0, 1}, {1, 1}, {1, 0}, {2, 0}});
  inst->demands = {0, 4, 6, 5, 5};
  inst->capacity = 10;
  inst->name = "tiny";
  return inst;
}

std::shared_ptr<CvrpInstance> generated(int n, std::uint64_t seed, const std::string& distribution = "uniform") {
  problems::GenerateOptions opt;
  opt.n = n;
  opt.distribution = distribution;
  return problems::cvrp::generate(opt, seed);
}

TEST(CvrpNearestNeighbor, FollowsNearestFittingCustomer) {
  // 1 and 3 tie from the depot (the lower id wins); 1 -> 2 fills the vehicle; 3 -> 4.
  EXPECT_EQ(cvrp_nearest_neighbor(*tiny(), {}), (Solution{{{1, 2}, {3, 4}}}));
}

TEST(CvrpNearestNeighbor, RouteEndsOnlyWhenNoRemainingCustomerFits) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto inst = generated(60, seed, seed % 2 ? "gm" : "uniform");
    const Solution s = solver_by_name("cvrp", "nearest_neighbor").solve(*inst, {});
    ASSERT_TRUE(problems::cvrp::feasible(*inst, s));
    for (std::size_t k = 0; k + 1 < s.lists.size(); ++k) {
      const int room = inst->capacity - problems::cvrp::route_load(*inst, s.lists[k]);
      for (std::size_t later = k + 1; later < s.lists.size(); ++later) {
        for (int v : s.lists[later]) EXPECT_GT(inst->demands[v], room) << "customer " << v << " fit into route " << k;
      }
    }
  }
}

TEST(CvrpNearestNeighbor, FeasibleOnBenchmarkFiles) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  for (const char* name : {"E-n13-k4", "A-n32-k5", "P-n101-k4", "X-n148-k46"}) {
    const auto inst = problems::cvrp::read_file(std::string(FALCON_BENCHMARKS_DIR) + "/cvrp/instances/" + name + ".vrp");
    EXPECT_TRUE(problems::cvrp::feasible(*inst, cvrp_nearest_neighbor(*inst, {}))) << name;
  }
}

TEST(CvrpLocalSearch, ImprovesNearestNeighborAndStaysFeasible) {
  double before = 0, after = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const auto inst = generated(40, seed);
    const Solution nn = cvrp_nearest_neighbor(*inst, {});
    const Solution ls{cvrp_local_search(*inst, nn.lists)};
    ASSERT_TRUE(problems::cvrp::feasible(*inst, ls));
    const double a = problems::cvrp::total_length(*inst, nn), b = problems::cvrp::total_length(*inst, ls);
    EXPECT_LE(b, a + 1e-9);
    before += a, after += b;
  }
  EXPECT_LT(after, 0.95 * before);
}

TEST(CvrpLocalSearch, MergesRoutesAndDropsEmptyOnes) {
  const auto inst = tiny();
  // Relocations reach the only two-route partition {1, 2}, {3, 4}, which is optimal.
  const auto out = cvrp_local_search(*inst, {{1, 3}, {}, {2}, {4}});
  EXPECT_EQ(out.size(), 2u);
  const Solution s{out};
  EXPECT_TRUE(problems::cvrp::feasible(*inst, s));
  EXPECT_NEAR(problems::cvrp::total_length(*inst, s), 2 + std::sqrt(2.0) + 4, 1e-9);
}

}  // namespace
}  // namespace falcon::solvers
