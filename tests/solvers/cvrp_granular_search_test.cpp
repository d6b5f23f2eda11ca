#include "falcon/solvers/cvrp_granular_search.h"

#include <gtest/gtest.h>

#include "falcon/problems/cvrp.h"
#include "falcon/problems/cvrp_files.h"
#include "falcon/solvers/cvrp_heuristics.h"
#include "tests/benchmark_files.h"

namespace falcon::solvers {
namespace {

using problems::Solution;

TEST(CvrpGranularSearch, FeasibleInputNeverGetsWorseUnderAHardPenalty) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    problems::GenerateOptions opt;
    opt.n = 60;
    opt.distribution = seed % 2 ? "gm" : "uniform";
    const auto inst = problems::cvrp::generate(opt, seed);
    const Solution nn = cvrp_nearest_neighbor(*inst, {});
    CvrpGranularSearch search(*inst, 20);
    Rng rng(seed);
    const Solution out{search.run(nn.lists, 1e6, rng)};
    ASSERT_TRUE(problems::cvrp::feasible(*inst, out)) << inst->name;
    EXPECT_LT(problems::cvrp::total_length(*inst, out), problems::cvrp::total_length(*inst, nn));
  }
}

TEST(CvrpGranularSearch, InfeasibleStartIsPricedAndRepairedByAHighPenalty) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  const auto inst = problems::cvrp::read_file(std::string(FALCON_BENCHMARKS_DIR) + "/cvrp/instances/A-n32-k5.vrp");
  std::vector<int> all;
  for (int v = 1; v < inst->size(); ++v) all.push_back(v);
  CvrpGranularSearch search(*inst, 20);
  Rng rng(1);
  // One overloaded route: relocations into empty routes and 2-opt* must split it.
  const Solution out{search.run({all}, 1e4, rng)};
  EXPECT_TRUE(problems::cvrp::feasible(*inst, out));
}

TEST(CvrpGranularSearch, ExplicitMatrixWithoutCoordinates) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  const auto inst = problems::cvrp::read_file(std::string(FALCON_BENCHMARKS_DIR) + "/cvrp/instances/E-n13-k4.vrp");
  // No coordinates, so no polar sectors: SWAP* tries every pair of routes.
  const Solution nn = cvrp_nearest_neighbor(*inst, {});
  CvrpGranularSearch search(*inst, 20);
  Rng rng(2);
  const Solution out{search.run(nn.lists, 1e6, rng)};
  EXPECT_TRUE(problems::cvrp::feasible(*inst, out));
  EXPECT_LE(problems::cvrp::total_length(*inst, out), problems::cvrp::total_length(*inst, nn) + 1e-9);
}

}  // namespace
}  // namespace falcon::solvers
