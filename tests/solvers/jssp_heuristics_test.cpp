#include "falcon/solvers/jssp_heuristics.h"

#include <gtest/gtest.h>

#include "falcon/problems/jssp_schedule.h"
#include "tests/benchmark_files.h"

namespace falcon::solvers {
namespace {

namespace jssp = problems::jssp;

TEST(JsspHeuristics, RegisteredAndFeasibleOnFt06) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
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

TEST(JsspHeuristics, RulesPickDifferentOperationsFromOneQueue) {
  // J4 holds M1 for [0,10). Meanwhile J3 (ready at 1, 4 long, 6 left), J2 (ready at 2, 1 long,
  // 3 left) and J1 (ready at 3, 5 long, 7 left) queue for M1; at 10 all three can start:
  // FIFO takes J3, SPT J2, MWKR J1.
  jssp::JsspInstance inst;
  inst.jobs = 4;
  inst.machines = 4;
  inst.routes = {{{1, 3}, {0, 5}, {2, 1}, {3, 1}},
                 {{2, 2}, {0, 1}, {1, 1}, {3, 1}},
                 {{3, 1}, {0, 4}, {1, 1}, {2, 1}},
                 {{0, 10}, {1, 1}, {2, 1}, {3, 1}}};
  const std::pair<DispatchRule, int> expected[] = {
      {DispatchRule::kFifo, 2}, {DispatchRule::kSpt, 1}, {DispatchRule::kMwkr, 0}};
  for (const auto& [rule, job] : expected) {
    const problems::Solution s = jssp_dispatch(inst, rule);
    ASSERT_EQ(s.lists[0].size(), 4u);
    EXPECT_EQ(s.lists[0][0], 3);
    EXPECT_EQ(s.lists[0][1], job) << static_cast<int>(rule);
  }
}

// Non-delay: no machine is idle at a time when an operation whose job is ready waits for it.
TEST(JsspHeuristics, NonDelayNeverLeavesAMachineIdleWhileWorkWaits) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    problems::GenerateOptions opt;
    opt.n = 8;
    opt.params["m"] = "4";
    const auto inst = jssp::generate(opt, seed);
    for (DispatchRule rule : {DispatchRule::kFifo, DispatchRule::kSpt, DispatchRule::kMwkr}) {
      const problems::Solution s = jssp_dispatch(*inst, rule);
      const jssp::DecodedSchedule d = jssp::decode_schedule(*inst, s.lists);
      auto route_index = [&](int j, int r) {
        int k = 0;
        while (inst->routes[j][k].machine != r) ++k;
        return k;
      };
      for (int r = 0; r < inst->machines; ++r) {
        const auto& seq = s.lists[r];
        for (std::size_t i = 0; i < seq.size(); ++i) {
          const int j = seq[i], k = route_index(j, r);
          const std::int64_t ready = k == 0 ? 0 : d.start[j][k - 1] + inst->routes[j][k - 1].duration;
          // Idle gaps of machine r before operation i: [previous end, next start).
          std::int64_t idle_from = 0;
          for (std::size_t h = 0; h < i; ++h) {
            const int kh = route_index(seq[h], r);
            const std::int64_t start = d.start[seq[h]][kh];
            EXPECT_FALSE(std::max(idle_from, ready) < start)
                << inst->name << " machine " << r << " idles before t=" << start << " while job " << j << " waits";
            idle_from = start + inst->routes[seq[h]][kh].duration;
          }
        }
      }
    }
  }
}

TEST(JsspHeuristics, ZeroDurationOperationsAreScheduled) {
  // orb07 has a zero-length operation: it must be dispatched like any other.
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
