// NuMVC (mis_local_search.h) and the phased local search (mis_phased_search.h).
#include "falcon/solvers/mis_local_search.h"

#include <gtest/gtest.h>

#include "falcon/solvers/graph_heuristics.h"
#include "falcon/solvers/mis_phased_search.h"
#include "tests/solvers/mis_test_graphs.h"

namespace falcon::solvers {
namespace {

using problems::Graph;
using testing::brute_force_alpha;
using testing::independent;

TEST(NuMvc, IndependentNeverAboveAlphaAndMostlyOptimal) {
  int optimal = 0, graphs = 0;
  for (int k = 0; k < 200; ++k) {
    const Graph g = testing::test_graph(k, 22);
    NuMvc search(g, min_degree_independent_set(g));
    search.run(2000, g.n);
    ASSERT_TRUE(search.consistent()) << "graph " << k;
    const std::vector<int> set = search.best_independent_set();
    ASSERT_TRUE(independent(g, set)) << "graph " << k;
    ASSERT_EQ(static_cast<int>(set.size()), search.best_size());
    const int alpha = brute_force_alpha(g);
    ASSERT_LE(search.best_size(), alpha);
    optimal += search.best_size() == alpha;
    ++graphs;
  }
  EXPECT_GE(optimal, graphs - 2);
}

TEST(NuMvc, StaysConsistentThroughWeightForgetting) {
  Rng rng(3);
  const Graph g = problems::erdos_renyi(60, 0.3, rng);
  NuMvcOptions options;
  options.gamma_per_vertex = 0.05;  // forget every few steps
  NuMvc search(g, {}, options);     // from the cover V
  for (int i = 0; i < 20; ++i) {
    search.run(500, g.n);
    ASSERT_TRUE(search.consistent());
  }
  EXPECT_TRUE(independent(g, search.best_independent_set()));
}

TEST(NuMvc, SameSeedSameResultAndTargetStopsEarly) {
  Rng rng(4);
  const Graph g = problems::erdos_renyi(150, 0.1, rng);
  NuMvcOptions options;
  options.seed = 9;
  NuMvc a(g, {}, options), b(g, {}, options);
  EXPECT_EQ(a.run(20000, g.n), 20000);
  b.run(20000, g.n);
  EXPECT_EQ(a.best_independent_set(), b.best_independent_set());
  NuMvc c(g, {}, options);
  EXPECT_LT(c.run(20000, /*target=*/5), 20000);  // any maximal set beats 5 at once
  EXPECT_GE(c.best_size(), 5);
}

TEST(PhasedSearch, IndependentNeverAboveAlphaAndMostlyOptimal) {
  int optimal = 0, graphs = 0;
  for (int k = 0; k < 200; ++k) {
    const Graph g = testing::test_graph(k, 22);
    PhasedSearch search(g, {}, /*seed=*/k);
    search.run(2000, g.n);
    const std::vector<int> set = search.best_independent_set();
    ASSERT_TRUE(independent(g, set)) << "graph " << k;
    ASSERT_EQ(static_cast<int>(set.size()), search.best_size());
    const int alpha = brute_force_alpha(g);
    ASSERT_LE(search.best_size(), alpha);
    optimal += search.best_size() == alpha;
    ++graphs;
  }
  EXPECT_GE(optimal, graphs - 2);
}

TEST(PhasedSearch, SameSeedSameResult) {
  Rng rng(6);
  const Graph g = problems::erdos_renyi(150, 0.1, rng);
  PhasedSearch a(g, min_degree_independent_set(g), 5), b(g, min_degree_independent_set(g), 5);
  a.run(30000, g.n);
  b.run(30000, g.n);
  EXPECT_EQ(a.best_independent_set(), b.best_independent_set());
  EXPECT_GE(a.best_size(), static_cast<int>(min_degree_independent_set(g).size()));
}

}  // namespace
}  // namespace falcon::solvers
