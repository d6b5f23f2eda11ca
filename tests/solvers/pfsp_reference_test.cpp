#include "falcon/solvers/pfsp_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <string>

#include "falcon/core/rng.h"
#include "tests/solvers/pfsp_test_util.h"
#include "falcon/solvers/pfsp_heuristics.h"
#include "tests/benchmark_files.h"

namespace falcon::solvers {
namespace {

using problems::Solution;
namespace pfsp = problems::pfsp;

using testing::brute_force_optimum;
const auto random_instance = testing::random_pfsp_instance;

PfspIteratedGreedyOptions short_budget(std::uint64_t seed, double cells_per_nm) {
  PfspIteratedGreedyOptions opt;
  opt.seed = seed;
  opt.cells_per_nm = cells_per_nm;
  return opt;
}

TEST(PfspReference, Registered) {
  problems::GenerateOptions opt;
  opt.n = 6;
  opt.params["m"] = "3";
  const auto inst = pfsp::generate(opt, 1);
  const Solution s = solver_by_name("pfsp", "reference").solve(*inst, SolveOptions{});
  EXPECT_EQ(s.items(), pfsp_iterated_greedy(*inst, PfspIteratedGreedyOptions{}).order);
  EXPECT_TRUE(pfsp::problem().feasible(*inst, s));
}

TEST(PfspReference, FeasibleAndNoWorseThanNeh) {
  Rng rng(1);
  for (int k = 0; k < 30; ++k) {
    const auto inst = random_instance(rng, 1, 40, 10, 100 + k);
    const Solution s = Solution::flat(pfsp_iterated_greedy(*inst, short_budget(k, 1e3)).order);
    ASSERT_TRUE(pfsp::problem().feasible(*inst, s)) << inst->name;
    EXPECT_LE(pfsp::makespan(*inst, s.items()), pfsp::makespan(*inst, neh_order(*inst))) << inst->name;
    EXPECT_GE(pfsp::makespan(*inst, s.items()), pfsp::lower_bound(*inst)) << inst->name;
  }
}

TEST(PfspReference, SameSeedSameResult) {
  problems::GenerateOptions gen;
  gen.n = 30;
  gen.params["m"] = "8";
  const auto inst = pfsp::generate(gen, 7);
  const auto a = pfsp_iterated_greedy(*inst, short_budget(5, 2e3));
  const auto b = pfsp_iterated_greedy(*inst, short_budget(5, 2e3));
  EXPECT_EQ(a.order, b.order);
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(a.cells, b.cells);
  EXPECT_EQ(a.makespan, pfsp::makespan(*inst, a.order));
  EXPECT_GT(a.iterations, 0);
}

TEST(PfspReference, FindsTheBruteForceOptimumOnSmallInstances) {
  Rng rng(3);
  for (int k = 0; k < 25; ++k) {
    const auto inst = random_instance(rng, 2, 7, 6, 300 + k);
    const auto result = pfsp_iterated_greedy(*inst, short_budget(k, 2e4));
    EXPECT_EQ(result.makespan, brute_force_optimum(*inst)) << inst->name;
    EXPECT_EQ(result.makespan, pfsp::makespan(*inst, result.order));
  }
}

TEST(PfspReference, StopsAtTheLowerBound) {
  // One machine: every order has makespan = total time = the lower bound; no search needed.
  problems::GenerateOptions opt;
  opt.n = 15;
  opt.params["m"] = "1";
  const auto inst = pfsp::generate(opt, 9);
  const auto result = pfsp_iterated_greedy(*inst, PfspIteratedGreedyOptions{});
  EXPECT_TRUE(result.reached_lower_bound);
  EXPECT_EQ(result.iterations, 0);
}

TEST(PfspReference, WallClockCapStopsEarlyWithAFeasibleOrder) {
  Rng rng(4);
  const auto inst = random_instance(rng, 40, 40, 10, 11);
  PfspIteratedGreedyOptions opt;
  opt.time_limit_s = 1e-9;
  const auto result = pfsp_iterated_greedy(*inst, opt);
  EXPECT_TRUE(result.time_capped);
  EXPECT_TRUE(pfsp::feasible(*inst, Solution::flat(result.order)));
}

TEST(PfspReference, WithinHalfAPercentOfTaillardOptimaOnAShortBudget) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  // ta001 (20x5), ta011 (20x10), ta021 (20x20): proven optima from the benchmark README. A
  // budget of 3e4 cells per n*m is 1/33 of the default (about 0.1 s for all three).
  const std::pair<const char*, long long> cases[] = {{"ta001", 1278}, {"ta011", 1582}, {"ta021", 2297}};
  double gap_sum = 0;
  for (const auto& [name, optimum] : cases) {
    const auto inst = pfsp::read_file(std::string(FALCON_BENCHMARKS_DIR) + "/pfsp/instances/" + name + ".txt");
    const auto result = pfsp_iterated_greedy(*inst, short_budget(1, 3e4));
    ASSERT_GE(result.makespan, optimum) << name;
    gap_sum += static_cast<double>(result.makespan - optimum) / optimum;
  }
  EXPECT_LE(gap_sum / 3, 0.005);
}

}  // namespace
}  // namespace falcon::solvers
