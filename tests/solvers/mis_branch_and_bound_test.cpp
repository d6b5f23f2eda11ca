#include "falcon/solvers/mis_branch_and_bound.h"

#include <gtest/gtest.h>

#include "tests/solvers/mis_test_graphs.h"

namespace falcon::solvers {
namespace {

using problems::Graph;
using testing::brute_force_alpha;
using testing::independent;

TEST(MisBranchAndBound, ProvesTheBruteForceOptimum) {
  for (int k = 0; k < 300; ++k) {
    const Graph g = testing::test_graph(k, 24);
    const MisBranchAndBoundResult r = mis_branch_and_bound(g, {});
    ASSERT_TRUE(r.proven_optimal);
    ASSERT_TRUE(independent(g, r.set)) << "graph " << k;
    ASSERT_EQ(static_cast<int>(r.set.size()), brute_force_alpha(g)) << "graph " << k;
    ASSERT_TRUE(std::is_sorted(r.set.begin(), r.set.end()));
  }
}

TEST(MisBranchAndBound, KeepsAnOptimalIncumbentAndProvesIt) {
  const Graph g = testing::test_graph(8, 24);
  const MisBranchAndBoundResult first = mis_branch_and_bound(g, {});
  const MisBranchAndBoundResult again = mis_branch_and_bound(g, first.set);
  EXPECT_TRUE(again.proven_optimal);
  EXPECT_EQ(again.set, first.set);
  EXPECT_LE(again.nodes, first.nodes);
}

TEST(MisBranchAndBound, ANodeBudgetStopsWithoutAProof) {
  Rng rng(5);
  const Graph g = problems::erdos_renyi(120, 0.1, rng);
  const std::vector<int> incumbent{0};
  MisBranchAndBoundOptions options;
  options.max_work = 3;
  const MisBranchAndBoundResult r = mis_branch_and_bound(g, incumbent, options);
  EXPECT_FALSE(r.proven_optimal);
  EXPECT_TRUE(independent(g, r.set));
  EXPECT_GE(r.set.size(), 1u);
  EXPECT_LE(r.nodes, 4);
}

TEST(MisBranchAndBound, EmptyAndEdgelessGraphs) {
  EXPECT_TRUE(mis_branch_and_bound(Graph::from_edges(0, {}), {}).set.empty());
  EXPECT_EQ(mis_branch_and_bound(Graph::from_edges(4, {}), {}).set, (std::vector<int>{0, 1, 2, 3}));
  // Wider than one 64-bit word.
  std::vector<std::pair<int, int>> edges;
  for (int v = 0; v + 1 < 130; v += 2) edges.emplace_back(v, v + 1);
  const MisBranchAndBoundResult matching = mis_branch_and_bound(Graph::from_edges(130, edges), {});
  EXPECT_TRUE(matching.proven_optimal);
  EXPECT_EQ(matching.set.size(), 65u);
}

}  // namespace
}  // namespace falcon::solvers
