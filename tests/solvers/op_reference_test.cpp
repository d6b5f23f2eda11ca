#include "falcon/solvers/op_reference.h"

#include <gtest/gtest.h>

#include <limits>

#include "falcon/problems/op.h"
#include "falcon/solvers/op_heuristics.h"
#include "tests/benchmark_files.h"

namespace falcon::solvers {
namespace {

using problems::Solution;
using problems::op::OpInstance;

const std::string kBench = std::string(FALCON_BENCHMARKS_DIR) + "/op/";

std::shared_ptr<OpInstance> generated(int n, std::uint64_t seed, const std::string& prize, double budget) {
  problems::GenerateOptions opt;
  opt.n = n;
  opt.params["prize"] = prize;
  opt.params["budget"] = std::to_string(budget);
  return problems::op::generate(opt, seed);
}

double prize(const OpInstance& inst, const Solution& s) { return problems::op::route_prize(inst, s.items()); }

// Best prize by dynamic programming over node subsets: the shortest start -> S -> end path of
// every subset S (Held-Karp), the best prize among those within the budget.
double brute_force_optimum(const OpInstance& inst) {
  const auto& g = inst.geometry;
  std::vector<int> nodes;
  for (int v = 0; v < inst.size(); ++v) {
    if (v != inst.start && v != inst.end) nodes.push_back(v);
  }
  const int k = static_cast<int>(nodes.size()), full = 1 << k;
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> path(full, std::vector<double>(k, inf));
  for (int j = 0; j < k; ++j) path[1 << j][j] = g.d(inst.start, nodes[j]);
  double best = problems::op::route_prize(inst, {});  // the empty route always fits
  for (int s = 1; s < full; ++s) {
    double closed = inf;
    for (int j = 0; j < k; ++j) {
      if (!(s >> j & 1) || path[s][j] == inf) continue;
      closed = std::min(closed, path[s][j] + g.d(nodes[j], inst.end));
      for (int l = 0; l < k; ++l) {
        if (!(s >> l & 1)) path[s | 1 << l][l] = std::min(path[s | 1 << l][l], path[s][j] + g.d(nodes[j], nodes[l]));
      }
    }
    if (!problems::op::within_budget(inst, closed)) continue;
    std::vector<int> chosen;
    for (int j = 0; j < k; ++j) {
      if (s >> j & 1) chosen.push_back(nodes[j]);
    }
    best = std::max(best, problems::op::route_prize(inst, chosen));
  }
  return best;
}

TEST(OpReference, IsRegistered) {
  using Fn = Solution (*)(const problems::Instance&, const SolveOptions&);
  const Fn* fn = solver_by_name("op", "reference").solve.target<Fn>();
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(*fn, &op_reference_solver);
}

TEST(OpReference, OptimalOnSmallInstancesByBruteForce) {
  const char* prizes[] = {"const", "uniform", "distance"};
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    auto inst = generated(12, seed, prizes[seed % 3], 1.5 + 0.2 * seed);
    if (seed % 2 == 0) {  // an s-t path, as in the Tsiligirides/Chao sets
      auto path = std::make_shared<OpInstance>(*inst);
      path->end = 1;
      path->prizes[1] = 0;
      inst = path;
    }
    const Solution s = op_reference_solver(*inst, {seed, 0});
    ASSERT_TRUE(problems::op::feasible(*inst, s)) << inst->name;
    EXPECT_NEAR(prize(*inst, s), brute_force_optimum(*inst), 1e-9) << inst->name << " seed " << seed;
  }
}

TEST(OpReference, SameSeedSameSolution) {
  const auto inst = generated(60, 4, "distance", 3);
  const Solution a = op_reference_solver(*inst, {5, 0});
  EXPECT_EQ(a, op_reference_solver(*inst, {5, 0}));
  EXPECT_TRUE(problems::op::feasible(*inst, a));
  EXPECT_GE(prize(*inst, a), prize(*inst, op_greedy(*inst, {})));
}

TEST(OpReference, ReachesProvenOptimaOnTsiligiridesAndChao) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  // Optima proven by the MILP of benchmarks/op/README.md; problem 1 at budget 25 needs the
  // route to leave the region the greedy start explores.
  const std::pair<const char*, double> cases[] = {{"Tsiligirides_1/tsiligirides_problem_1_budget_25.txt", 90},
                                                  {"Tsiligirides_2/tsiligirides_problem_2_budget_30.txt", 265},
                                                  {"Tsiligirides_3/tsiligirides_problem_3_budget_080.txt", 710},
                                                  {"ChaoSet_64/set_64_1_50.txt", 900}};
  for (const auto& [file, optimum] : cases) {
    const auto inst = problems::op::read_file(kBench + "tsiligirides_chao/" + file);
    const Solution s = op_reference_solver(*inst, {1, 0});
    ASSERT_TRUE(problems::op::feasible(*inst, s)) << file;
    EXPECT_LE(prize(*inst, s), optimum + 1e-9) << file;
    EXPECT_NEAR(prize(*inst, s), optimum, 1e-9) << file;
  }
}

TEST(OpReference, WithinOnePercentOnAnOplibInstance) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  // EA4OP's best known score is 1668; the reference solver must come within 1% of it.
  const auto inst = problems::op::read_file(kBench + "oplib/instances/eil51-gen2-50.oplib");
  const Solution s = op_reference_solver(*inst, {1, 0});
  ASSERT_TRUE(problems::op::feasible(*inst, s));
  EXPECT_GE(prize(*inst, s), 0.99 * 1668);
}

TEST(OpReference, NothingFitsAndTimeCap) {
  auto inst = std::make_shared<OpInstance>();
  inst->geometry = problems::RoutingGeometry::euclidean({{0, 0}, {5, 0}, {0, 5}});
  inst->prizes = {0, 3, 4};
  inst->budget = 1;
  EXPECT_EQ(op_reference(*inst, {}), Solution::flat({}));
  const auto big = generated(80, 1, "distance", 4);
  OpReferenceOptions o;
  o.time_limit_s = 1e-6;  // triggers at once: still a feasible route
  EXPECT_TRUE(problems::op::feasible(*big, op_reference(*big, o)));
}

}  // namespace
}  // namespace falcon::solvers
