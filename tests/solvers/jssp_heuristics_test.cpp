#include "falcon/solvers/jssp_heuristics.h"

#include <gtest/gtest.h>

#include "falcon/problems/jssp_schedule.h"

namespace falcon::solvers {
namespace {

namespace jssp = problems::jssp;

TEST(JsspHeuristics, RegisteredAndFeasibleOnFt06) {
  const auto inst = jssp::read_file(std::string(FALCON_BENCHMARKS_DIR) + "/jssp/instances/ft06.txt");
  for (const char* method : {"fifo", "spt", "mwkr"}) {
    const problems::Solution s = solver_by_name("jssp", method).solve(*inst, SolveOptions{});
    ASSERT_TRUE(jssp::problem().feasible(*inst, s)) << method;
    const double makespan = jssp::problem().objective(*inst, s);
    EXPECT_GE(makespan, 55) << method;  // the proven optimum
    EXPECT_LE(makespan, 2 * 55) << method;  // a dispatching rule, not a random schedule
  }
}

TEST(JsspHeuristics, FeasibleAndAboveTheLowerBoundOnGeneratedInstances) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    problems::GenerateOptions opt;
    opt.n = 3 + static_cast<int>(seed % 12);
    opt.params["m"] = std::to_string(1 + seed % 7);
    const auto inst = jssp::generate(opt, seed);
    for (DispatchRule rule : {DispatchRule::kFifo, DispatchRule::kSpt, DispatchRule::kMwkr}) {
      const problems::Solution s = jssp_dispatch(*inst, rule);
      ASSERT_TRUE(jssp::feasible(*inst, s)) << inst->name;
      EXPECT_GE(jssp::makespan(*inst, s), static_cast<double>(jssp::lower_bound(*inst)));
    }
  }
}

TEST(JsspHeuristics, RulesPickDifferentOperationsFromOneConflictSet) {
  // J1: (M2,1)(M1,5)(M3,2)  J2: (M3,2)(M1,1)(M2,1)  J3: (M1,4)(M2,1)(M3,1)
  // J1 takes M2 [0,1), J2 takes M3 [0,2). Then all three wait for M1: J1 ready at 1 (5 long,
  // 7 left), J2 at 2 (1 long, 2 left), J3 at 0 (4 long, 6 left); J2 would finish first (3) and
  // all could start before 3, so all conflict: FIFO takes J3, SPT J2, MWKR J1.
  jssp::JsspInstance inst;
  inst.jobs = 3;
  inst.machines = 3;
  inst.routes = {{{1, 1}, {0, 5}, {2, 2}}, {{2, 2}, {0, 1}, {1, 1}}, {{0, 4}, {1, 1}, {2, 1}}};
  EXPECT_EQ(jssp_dispatch(inst, DispatchRule::kFifo).lists[0].front(), 2);
  EXPECT_EQ(jssp_dispatch(inst, DispatchRule::kSpt).lists[0].front(), 1);
  EXPECT_EQ(jssp_dispatch(inst, DispatchRule::kMwkr).lists[0].front(), 0);
}

TEST(JsspHeuristics, ZeroDurationOperationsAreScheduled) {
  // orb07 has a zero-length operation; the conflict set must still contain it.
  jssp::JsspInstance inst;
  inst.jobs = 2;
  inst.machines = 2;
  inst.routes = {{{0, 0}, {1, 0}}, {{1, 3}, {0, 0}}};
  const problems::Solution s = jssp_dispatch(inst, DispatchRule::kSpt);
  ASSERT_TRUE(jssp::feasible(inst, s));
  EXPECT_EQ(jssp::makespan(inst, s), 3.0);
}

}  // namespace
}  // namespace falcon::solvers
