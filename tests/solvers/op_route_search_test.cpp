#include "falcon/solvers/op_route_search.h"

#include <gtest/gtest.h>

#include "falcon/problems/op.h"

namespace falcon::solvers {
namespace {

using problems::op::OpInstance;

std::shared_ptr<OpInstance> generated(int n, std::uint64_t seed) {
  problems::GenerateOptions opt;
  opt.n = n;
  return problems::op::generate(opt, seed);
}

// No node with a prize fits anywhere into the route.
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

TEST(OpRouteSearch, LocalSearchGivesAFeasibleMaximalRoute) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto inst = generated(60, seed);
    OpRouteSearch search(*inst);
    Rng rng(seed);
    OpRoute r = search.make({});
    search.local_search(r, 1.0, rng);
    ASSERT_TRUE(problems::op::feasible(*inst, problems::Solution::flat(r.nodes)));
    EXPECT_TRUE(maximal(*inst, r.nodes));
    EXPECT_NEAR(r.length, problems::op::route_length(*inst, r.nodes), 1e-9);
    EXPECT_NEAR(r.prize + inst->prizes[inst->start], problems::op::route_prize(*inst, r.nodes), 1e-9);
  }
}

TEST(OpRouteSearch, DropBringsEveryNodeIntoTheBudget) {
  const auto inst = generated(50, 3);
  OpRouteSearch search(*inst);
  Rng rng(1);
  OpRoute r = search.make(search.candidates());  // every node: far over the budget
  ASSERT_FALSE(search.fits(r));
  search.drop(r, 0.0, rng);
  EXPECT_TRUE(search.fits(r));
  EXPECT_FALSE(r.nodes.empty());
}

TEST(OpRouteSearch, ShortenNeverLengthensAndKeepsTheNodes) {
  const auto inst = generated(40, 2);
  OpRouteSearch search(*inst);
  OpRoute r = search.make(search.candidates());
  const double before = r.length;
  std::vector<int> nodes = r.nodes;
  EXPECT_TRUE(search.shorten(r));
  EXPECT_LT(r.length, before);
  std::sort(nodes.begin(), nodes.end());
  std::vector<int> after = r.nodes;
  std::sort(after.begin(), after.end());
  EXPECT_EQ(after, nodes);
}

}  // namespace
}  // namespace falcon::solvers
