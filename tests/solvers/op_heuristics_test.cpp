#include "falcon/solvers/op_heuristics.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "falcon/problems/op.h"
#include "falcon/problems/op_files.h"
#include "tests/benchmark_files.h"

namespace falcon::solvers {
namespace {

namespace fs = std::filesystem;
using problems::Solution;
using problems::op::OpInstance;

const std::string kBench = std::string(FALCON_BENCHMARKS_DIR) + "/op/";

std::shared_ptr<OpInstance> make(std::vector<problems::Point> coords, std::vector<double> prizes, double budget) {
  auto inst = std::make_shared<OpInstance>();
  inst->geometry = problems::RoutingGeometry::euclidean(std::move(coords));
  inst->prizes = std::move(prizes);
  inst->budget = budget;
  inst->name = "hand";
  problems::op::validate(*inst);
  return inst;
}

// No node with a prize can be added anywhere without breaking the budget.
bool maximal(const OpInstance& inst, const std::vector<int>& route) {
  std::vector<char> in(inst.size(), 0);
  for (int v : route) in[v] = 1;
  for (int v = 0; v < inst.size(); ++v) {
    if (in[v] || v == inst.start || v == inst.end || inst.prizes[v] <= 0) continue;
    for (std::size_t pos = 0; pos <= route.size(); ++pos) {
      std::vector<int> longer = route;
      longer.insert(longer.begin() + static_cast<std::ptrdiff_t>(pos), v);
      if (problems::op::within_budget(inst, problems::op::route_length(inst, longer))) return false;
    }
  }
  return true;
}

TEST(OpGreedy, IsRegistered) {
  using Fn = problems::Solution (*)(const problems::Instance&, const SolveOptions&);
  const Fn* fn = solver_by_name("op", "greedy").solve.target<Fn>();
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(*fn, &op_greedy);
}

TEST(OpGreedy, PicksTheBestPrizePerAddedLength) {
  // Node 1 at (0,1): prize 3 for 2 extra length (ratio 1.5); node 2 at (4,0): prize 10 for 8
  // (ratio 1.25). Budget 8 fits either alone: greedy takes node 1, and then node 2 would cost
  // 4 + sqrt(17) - 1 more, which no longer fits.
  const std::vector<problems::Point> pts = {{0, 0}, {0, 1}, {4, 0}};
  EXPECT_EQ(op_greedy(*make(pts, {0, 3, 10}, 8), {}), Solution::flat({1}));
  // Budget 9.2 fits both; both places for node 2 cost the same, the first one is taken.
  EXPECT_EQ(op_greedy(*make(pts, {0, 3, 10}, 9.2), {}), Solution::flat({2, 1}));
  // Nothing fits: the empty route.
  EXPECT_EQ(op_greedy(*make(pts, {0, 3, 10}, 1), {}), Solution::flat({}));
}

TEST(OpGreedy, FeasibleAndMaximalOnGeneratedInstances) {
  Rng rng(11);
  for (int k = 0; k < 120; ++k) {
    problems::GenerateOptions opt;
    opt.n = rng.uniform_int(2, 100);
    opt.distribution = k % 2 ? "gm" : "uniform";
    opt.params["prize"] = k % 3 == 0 ? "const" : k % 3 == 1 ? "uniform" : "distance";
    const auto inst = problems::op::generate(opt, 500 + k);
    const Solution s = op_greedy(*inst, {});
    ASSERT_TRUE(problems::op::problem().feasible(*inst, s)) << inst->name;
    EXPECT_TRUE(maximal(*inst, s.items())) << inst->name;
    if (opt.n >= 10) EXPECT_GT(s.items().size(), 0u) << inst->name;  // Kool budgets fit several nodes
  }
}

TEST(OpGreedy, FeasibleOnEveryBenchmarkFile) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kBench)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".oplib" && !(ext == ".txt" && entry.path().filename() != "OP_format.txt")) continue;
    const auto inst = problems::op::read_file(entry.path().string());
    const Solution s = op_greedy(*inst, {});
    EXPECT_TRUE(problems::op::problem().feasible(*inst, s)) << entry.path();
    EXPECT_GT(problems::op::problem().objective(*inst, s), 0) << entry.path();
    ++files;
  }
  EXPECT_EQ(files, 136 + 89);
}

}  // namespace
}  // namespace falcon::solvers
