#include "falcon/solvers/mis_reference.h"

#include <gtest/gtest.h>

#include <string>

#include "falcon/problems/mis_mvc.h"
#include "tests/solvers/mis_test_graphs.h"
#include "tests/benchmark_files.h"

namespace falcon::solvers {
namespace {

using problems::GenerateOptions;
using problems::Graph;
using problems::GraphInstance;
using problems::Solution;
using testing::brute_force_alpha;
using testing::independent;

const std::string kBench = std::string(FALCON_BENCHMARKS_DIR) + "/mis/";

TEST(MisReference, RegisteredForBothProblems) {
  EXPECT_EQ(solver_by_name("mis", "reference").problem, "mis");
  EXPECT_EQ(solver_by_name("mvc", "reference").problem, "mvc");
}

TEST(MisReference, ProvesTheOptimumOnSmallGraphs) {
  for (int k = 0; k < 300; ++k) {
    const Graph g = testing::test_graph(k, 24);
    MisReferenceOptions options;
    options.seed = static_cast<std::uint64_t>(k);
    const MisReferenceResult r = mis_reference(g, options);
    ASSERT_TRUE(independent(g, r.set)) << "graph " << k;
    ASSERT_EQ(static_cast<int>(r.set.size()), brute_force_alpha(g)) << "graph " << k;
    ASSERT_TRUE(r.proven_optimal) << "graph " << k;
    ASSERT_TRUE(std::is_sorted(r.set.begin(), r.set.end()));
  }
}

TEST(MisReference, EachPartAloneStaysCorrect) {
  for (int k = 0; k < 100; ++k) {
    const Graph g = testing::test_graph(k, 20);
    const int alpha = brute_force_alpha(g);
    MisReferenceOptions no_reductions;
    no_reductions.reduce = false;
    const MisReferenceResult a = mis_reference(g, no_reductions);
    ASSERT_TRUE(a.proven_optimal);
    ASSERT_EQ(static_cast<int>(a.set.size()), alpha);
    MisReferenceOptions no_exact;
    no_exact.branch_and_bound_work = 0;
    const MisReferenceResult b = mis_reference(g, no_exact);
    ASSERT_TRUE(independent(g, b.set));
    ASSERT_LE(static_cast<int>(b.set.size()), alpha);
    // Without the exact search only a kernel the reductions emptied counts as proven.
    ASSERT_EQ(b.proven_optimal, b.kernel_vertices == 0);
    MisReferenceOptions nothing;
    nothing.branch_and_bound_work = 0;
    nothing.local_search_steps = 0;
    ASSERT_TRUE(independent(g, mis_reference(g, nothing).set));
  }
}

TEST(MisReference, SolvesComponentsSeparately) {
  // Five disjoint random graphs: alpha is the sum of theirs, and each is proven on its own.
  std::vector<std::pair<int, int>> edges;
  int n = 0, alpha = 0;
  for (int part = 0; part < 5; ++part) {
    Rng rng(static_cast<std::uint64_t>(40 + part));
    const Graph piece = problems::erdos_renyi(22, 0.3, rng);
    alpha += brute_force_alpha(piece);
    for (const auto& [u, v] : piece.edges) edges.emplace_back(n + u, n + v);
    n += piece.n;
  }
  const Graph g = Graph::from_edges(n, edges);
  const MisReferenceResult r = mis_reference(g, {});
  EXPECT_TRUE(r.proven_optimal);
  EXPECT_TRUE(independent(g, r.set));
  EXPECT_EQ(static_cast<int>(r.set.size()), alpha);
  MisReferenceOptions starved;
  starved.branch_and_bound_work = 1;  // the first component's search stops at once
  const MisReferenceResult s = mis_reference(g, starved);
  EXPECT_FALSE(s.proven_optimal);
  EXPECT_TRUE(independent(g, s.set));
}

TEST(MisReference, FeasibleDeterministicAndComplementaryOnGeneratedInstances) {
  for (const char* distribution : {"er", "ba"}) {
    GenerateOptions opt;
    opt.n = 80;
    opt.distribution = distribution;
    const auto inst = problems::mis_mvc::generate(opt, 11, "mis");
    SolveOptions so;
    so.seed = 3;
    const Solution is = solver_by_name("mis", "reference").solve(*inst, so);
    const Solution vc = solver_by_name("mvc", "reference").solve(*inst, so);
    EXPECT_TRUE(problems::mis::problem().feasible(*inst, is));
    EXPECT_TRUE(problems::mvc::problem().feasible(*inst, vc));
    EXPECT_EQ(is.items().size() + vc.items().size(), static_cast<std::size_t>(opt.n));
    EXPECT_EQ(solver_by_name("mis", "reference").solve(*inst, so), is);
    // The greedy baseline never beats it.
    EXPECT_GE(is.items().size(), solver_by_name("mis", "greedy").solve(*inst, so).items().size());
    const MisReferenceResult r = mis_reference(inst->graph, {});
    EXPECT_TRUE(r.proven_optimal) << distribution;  // n = 80 is well within the exact search
  }
}

TEST(MisReference, AWallClockCapStillGivesAnIndependentSet) {
  Rng rng(8);
  const Graph g = problems::erdos_renyi(300, 0.2, rng);
  MisReferenceOptions options;
  options.time_limit_s = 1e-6;
  const MisReferenceResult r = mis_reference(g, options);
  EXPECT_TRUE(r.time_limit_hit);
  EXPECT_TRUE(independent(g, r.set));
  EXPECT_FALSE(r.set.empty());
}

// Known optima (README of the benchmark family); the short budget keeps the test fast.
TEST(MisReference, ReachesAlphaOnBenchmarkGraphs) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  struct Case {
    const char* file;
    int alpha;
    bool expect_proof;
    long long steps;
  };
  for (const Case& c : {Case{"dimacs_clique/C125.9.clq", 34, true, -1}, Case{"dimacs_clique/keller4.clq", 11, true, -1},
                        Case{"dimacs_clique/brock200_4.clq", 17, true, -1},
                        Case{"dimacs_clique/MANN_a27.clq", 126, true, -1},
                        Case{"bhoslib/frb30-15-1.mis", 30, false, 200000}}) {
    const auto inst = problems::mis_mvc::read_file(kBench + c.file);
    MisReferenceOptions options;
    options.local_search_steps = c.steps;
    if (!c.expect_proof) options.branch_and_bound_work = 0;
    const MisReferenceResult r = mis_reference(inst->graph, options);
    EXPECT_TRUE(independent(inst->graph, r.set)) << c.file;
    EXPECT_EQ(static_cast<int>(r.set.size()), c.alpha) << c.file;
    EXPECT_EQ(r.proven_optimal, c.expect_proof) << c.file;
  }
}

}  // namespace
}  // namespace falcon::solvers
