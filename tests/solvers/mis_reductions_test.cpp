#include "falcon/solvers/mis_reductions.h"

#include <gtest/gtest.h>

#include "falcon/solvers/mis_branch_and_bound.h"
#include "tests/solvers/mis_test_graphs.h"

namespace falcon::solvers {
namespace {

using problems::Graph;
using testing::brute_force_alpha;
using testing::independent;

Graph path(int n) {
  std::vector<std::pair<int, int>> edges;
  for (int v = 1; v < n; ++v) edges.emplace_back(v - 1, v);
  return Graph::from_edges(n, edges);
}

Graph cycle(int n) {
  std::vector<std::pair<int, int>> edges;
  for (int v = 0; v < n; ++v) edges.emplace_back(v, (v + 1) % n);
  return Graph::from_edges(n, edges);
}

TEST(MisReductions, SolvePathsCyclesAndStarsCompletely) {
  for (int n = 1; n <= 9; ++n) {
    const MisKernel p = reduce_mis(path(n));
    EXPECT_EQ(p.graph.n, 0);
    EXPECT_EQ(p.offset, (n + 1) / 2);
    EXPECT_EQ(p.lift({}).size(), static_cast<std::size_t>((n + 1) / 2));
    EXPECT_TRUE(independent(path(n), p.lift({})));
  }
  for (int n = 3; n <= 9; ++n) {  // degree 2 everywhere: folding (triangle rule for n = 3)
    const MisKernel c = reduce_mis(cycle(n));
    EXPECT_EQ(c.graph.n, 0) << n;
    EXPECT_EQ(c.lift({}).size(), static_cast<std::size_t>(n / 2)) << n;
    EXPECT_TRUE(independent(cycle(n), c.lift({})));
  }
  const Graph star = Graph::from_edges(5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}});
  EXPECT_EQ(reduce_mis(star).lift({}), (std::vector<int>{1, 2, 3, 4}));
}

TEST(MisReductions, LeaveADenseGraphAlone) {
  // K4 minus a perfect matching is a 4-cycle (folds); K5 minus nothing: domination removes all
  // but one vertex. A 3-regular graph without domination (the Petersen graph) stays whole.
  const Graph petersen = Graph::from_edges(10, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 5}, {1, 6}, {2, 7},
                                                {3, 8}, {4, 9}, {5, 7}, {7, 9}, {9, 6}, {6, 8}, {8, 5}});
  const MisKernel k = reduce_mis(petersen);
  EXPECT_EQ(k.graph.n, 10);
  EXPECT_EQ(k.offset, 0);
}

TEST(MisReductions, KeepAlphaAndLiftOptimalSetsOnRandomGraphs) {
  int reduced_to_nothing = 0, folds = 0;
  for (int k = 0; k < 400; ++k) {
    const Graph g = testing::test_graph(k, 22);
    const int alpha = brute_force_alpha(g);
    for (const bool fold : {true, false}) {
      MisReduceOptions options;
      options.fold_degree_two = fold;
      const MisKernel kernel = reduce_mis(g, options);
      ASSERT_LE(kernel.graph.n, g.n);
      ASSERT_EQ(brute_force_alpha(kernel.graph) + kernel.offset, alpha) << "graph " << k;
      const MisBranchAndBoundResult exact = mis_branch_and_bound(kernel.graph, {});
      const std::vector<int> lifted = kernel.lift(exact.set);
      ASSERT_TRUE(independent(g, lifted)) << "graph " << k;
      ASSERT_EQ(static_cast<int>(lifted.size()), alpha) << "graph " << k;
      // Any independent set of the kernel lifts to an independent set (here: the empty one).
      ASSERT_TRUE(independent(g, kernel.lift({})));
      ASSERT_EQ(static_cast<int>(kernel.lift({}).size()), kernel.offset);
      if (fold) {
        reduced_to_nothing += kernel.graph.n == 0;
        folds += !kernel.folds.empty();
      }
    }
  }
  // The stream exercises both outcomes and the folding rule.
  EXPECT_GT(reduced_to_nothing, 50);
  EXPECT_LT(reduced_to_nothing, 400);
  EXPECT_GT(folds, 20);
}

TEST(MisReductions, ComponentsAndInducedSubgraphs) {
  const Graph g = Graph::from_edges(6, {{0, 3}, {3, 5}, {1, 4}});
  const auto components = connected_components(g);
  ASSERT_EQ(components.size(), 3u);
  EXPECT_EQ(components[0], (std::vector<int>{0, 3, 5}));
  EXPECT_EQ(components[1], (std::vector<int>{1, 4}));
  EXPECT_EQ(components[2], (std::vector<int>{2}));
  const Graph sub = induced_subgraph(g, components[0]);
  EXPECT_EQ(sub.n, 3);
  EXPECT_EQ(sub.edges, (std::vector<std::pair<int, int>>{{0, 1}, {1, 2}}));
}

}  // namespace
}  // namespace falcon::solvers
