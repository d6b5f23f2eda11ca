#include "falcon/solvers/jssp_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <functional>
#include <string>

#include "falcon/core/rng.h"
#include "falcon/problems/jssp_schedule.h"
#include "falcon/solvers/jssp_critical_path.h"
#include "tests/benchmark_files.h"

namespace falcon::solvers {
namespace {

using problems::Solution;
namespace jssp = problems::jssp;

std::shared_ptr<jssp::JsspInstance> generated(int jobs, int machines, std::uint64_t seed) {
  problems::GenerateOptions opt;
  opt.n = jobs;
  opt.params["m"] = std::to_string(machines);
  return jssp::generate(opt, seed);
}

// An acyclic solution: random permutations per machine, made decodable by the problem's repair.
Solution random_solution(const jssp::JsspInstance& inst, Rng& rng) {
  Solution s;
  for (int r = 0; r < inst.machines; ++r) {
    std::vector<int> jobs(inst.jobs);
    for (int j = 0; j < inst.jobs; ++j) jobs[j] = j;
    rng.shuffle(jobs);
    s.lists.push_back(jobs);
  }
  return jssp::repair_schedule(inst, s);
}

// Minimum makespan over every combination of machine sequences (cyclic ones skipped).
std::int64_t brute_force_optimum(const jssp::JsspInstance& inst) {
  JobShopGraph graph(inst);
  Solution s;
  s.lists.assign(inst.machines, {});
  std::int64_t best = LLONG_MAX;
  std::function<void(int)> fill = [&](int r) {
    if (r == inst.machines) {
      if (graph.set_solution(s)) best = std::min(best, graph.makespan());
      return;
    }
    std::vector<int> jobs(inst.jobs);
    for (int j = 0; j < inst.jobs; ++j) jobs[j] = j;
    do {
      s.lists[r] = jobs;
      fill(r + 1);
    } while (std::next_permutation(jobs.begin(), jobs.end()));
  };
  fill(0);
  return best;
}

JsspTabuOptions short_budget(std::uint64_t seed, double iterations_per_op) {
  JsspTabuOptions opt;
  opt.seed = seed;
  opt.iterations_per_op = iterations_per_op;
  return opt;
}

void expect_same_timing(const JobShopGraph& a, const JobShopGraph& b) {
  ASSERT_EQ(a.makespan(), b.makespan());
  for (int op = 0; op < a.operations(); ++op) {
    ASSERT_EQ(a.head(op), b.head(op)) << op;
    ASSERT_EQ(a.tail(op), b.tail(op)) << op;
  }
}

TEST(JobShopGraph, HeadsAreTheSemiActiveStartsAndTheMakespanIsTheProblems) {
  Rng rng(1);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto inst = generated(2 + static_cast<int>(seed % 9), 1 + static_cast<int>(seed % 6), seed);
    const Solution s = random_solution(*inst, rng);
    JobShopGraph graph(*inst);
    ASSERT_TRUE(graph.set_solution(s));
    EXPECT_EQ(graph.solution(), s);
    EXPECT_EQ(static_cast<double>(graph.makespan()), jssp::makespan(*inst, s));
    const jssp::DecodedSchedule decoded = jssp::decode_schedule(*inst, s.lists);
    for (int j = 0; j < inst->jobs; ++j) {
      for (int k = 0; k < inst->machines; ++k) {
        const int op = j * inst->machines + k;
        EXPECT_EQ(graph.head(op), decoded.start[j][k]);
        EXPECT_LE(graph.head(op) + graph.duration(op) + graph.tail(op), graph.makespan());
      }
    }
  }
}

TEST(JobShopGraph, CyclicSequencesAreRejected) {
  // J1 = (M1, M2), J2 = (M2, M1); M1: [J2, J1], M2: [J1, J2] is a cycle (see jssp_schedule.h).
  jssp::JsspInstance inst;
  inst.jobs = 2;
  inst.machines = 2;
  inst.routes = {{{0, 3}, {1, 2}}, {{1, 4}, {0, 1}}};
  JobShopGraph graph(inst);
  EXPECT_FALSE(graph.set_solution(Solution{{{1, 0}, {0, 1}}}));
  EXPECT_TRUE(graph.set_solution(Solution{{{0, 1}, {0, 1}}}));
  EXPECT_FALSE(graph.set_solution(Solution{{{0, 0}, {0, 1}}}));  // not a permutation
}

TEST(JobShopGraph, IncrementalSwapsMatchAFreshEvaluationAndTheEstimateIsALowerBound) {
  Rng rng(2);
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto inst = generated(4 + static_cast<int>(seed % 8), 2 + static_cast<int>(seed % 5), 50 + seed);
    JobShopGraph graph(*inst);
    ASSERT_TRUE(graph.set_solution(random_solution(*inst, rng)));
    JobShopGraph::CriticalPath path;
    for (int step = 0; step < 200; ++step) {
      graph.critical_path(path);
      // The path is critical: it starts at 0, is contiguous and ends at the makespan.
      ASSERT_FALSE(path.ops.empty());
      EXPECT_EQ(graph.head(path.ops.front()), 0);
      EXPECT_EQ(graph.head(path.ops.back()) + graph.duration(path.ops.back()), graph.makespan());
      std::vector<std::pair<int, int>> pairs;
      for (int b = 0; b < path.blocks(); ++b) {
        for (int i = path.block_begin[b]; i + 1 < path.block_begin[b + 1]; ++i) pairs.emplace_back(path.ops[i], path.ops[i + 1]);
      }
      if (pairs.empty()) break;  // one job's route: optimal, nothing to swap
      const auto [u, v] = pairs[rng.uniform_int(0, static_cast<int>(pairs.size()) - 1)];
      const std::int64_t estimate = graph.swap_estimate(u, v);
      ASSERT_TRUE(graph.swap(u, v));
      EXPECT_LE(estimate, graph.makespan());
      JobShopGraph fresh(*inst);
      ASSERT_TRUE(fresh.set_solution(graph.solution()));
      expect_same_timing(graph, fresh);
    }
  }
}

TEST(JsspReference, RegisteredAndFeasible) {
  const auto inst = generated(4, 2, 3);
  const Solution s = solver_by_name("jssp", "reference").solve(*inst, SolveOptions{});
  EXPECT_TRUE(jssp::problem().feasible(*inst, s));
  EXPECT_EQ(s, jssp_tabu_search(*inst, JsspTabuOptions{}).solution);
}

TEST(JsspReference, FeasibleSameSeedSameResultAndAboveTheLowerBound) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const auto inst = generated(2 + static_cast<int>(seed % 12), 1 + static_cast<int>(seed % 7), 70 + seed);
    const JsspTabuResult a = jssp_tabu_search(*inst, short_budget(seed, 50));
    const JsspTabuResult b = jssp_tabu_search(*inst, short_budget(seed, 50));
    ASSERT_TRUE(jssp::feasible(*inst, a.solution)) << inst->name;
    EXPECT_EQ(a.solution, b.solution);
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(static_cast<double>(a.makespan), jssp::makespan(*inst, a.solution));
    EXPECT_GE(a.makespan, jssp::lower_bound(*inst));
    EXPECT_EQ(a.reached_lower_bound, a.makespan == jssp::lower_bound(*inst));
  }
}

TEST(JsspReference, FindsTheBruteForceOptimumOnTinyInstances) {
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const auto inst = generated(seed % 2 ? 3 : 4, seed % 4 ? 3 : 2, 200 + seed);
    const JsspTabuResult result = jssp_tabu_search(*inst, short_budget(seed, 100));
    EXPECT_EQ(result.makespan, brute_force_optimum(*inst)) << inst->name;
  }
}

TEST(JsspReference, WallClockCapStopsEarlyWithAFeasibleSchedule) {
  const auto inst = generated(15, 10, 5);
  JsspTabuOptions opt;
  opt.time_limit_s = 1e-9;
  const JsspTabuResult result = jssp_tabu_search(*inst, opt);
  EXPECT_TRUE(result.time_capped);
  EXPECT_TRUE(jssp::feasible(*inst, result.solution));
}

TEST(JsspReference, WithinOnePercentOfTheOptimaOnAShortBudget) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  // Proven optima (benchmarks/jssp/bounds.csv). 1000 iterations per operation is a tenth of
  // the default (about 0.2 s for all three).
  const std::pair<const char*, std::int64_t> cases[] = {{"ft06", 55}, {"la01", 666}, {"la16", 945}};
  double gap_sum = 0;
  for (const auto& [name, optimum] : cases) {
    const auto inst = jssp::read_file(std::string(FALCON_BENCHMARKS_DIR) + "/jssp/instances/" + name + ".txt");
    const JsspTabuResult result = jssp_tabu_search(*inst, short_budget(1, 1000));
    ASSERT_TRUE(jssp::feasible(*inst, result.solution)) << name;
    ASSERT_GE(result.makespan, optimum) << name;
    gap_sum += static_cast<double>(result.makespan - optimum) / optimum;
  }
  EXPECT_LE(gap_sum / 3, 0.01);
}

}  // namespace
}  // namespace falcon::solvers
