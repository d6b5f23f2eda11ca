#include "falcon/solvers/graph_heuristics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "falcon/problems/mis_mvc.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {
namespace {

using problems::GenerateOptions;
using problems::Graph;
using problems::GraphInstance;
using problems::Solution;

// alpha(G) by enumerating every subset; n <= 20.
int brute_force_alpha(const Graph& g) {
  std::vector<unsigned> nb(static_cast<std::size_t>(g.n), 0);
  for (const auto& [u, v] : g.edges) nb[u] |= 1u << v, nb[v] |= 1u << u;
  int best = 0;
  for (unsigned mask = 0; mask < (1u << g.n); ++mask) {
    bool independent = true;
    for (int v = 0; v < g.n && independent; ++v) independent = !(mask >> v & 1u) || (nb[v] & mask) == 0;
    if (independent) best = std::max(best, __builtin_popcount(mask));
  }
  return best;
}

TEST(GraphHeuristics, RegisteredForBothProblems) {
  EXPECT_EQ(solver_by_name("mis", "greedy").problem, "mis");
  EXPECT_EQ(solver_by_name("mvc", "greedy").method, "greedy");
}

// The compact_ranked text's promise, on 30 graphs of `problem`: a model that starts at the vertex
// the greedy takes first and then always writes the first vertex of the latest note, until a note
// is empty, is that greedy; and the greedy's own set, in the ranked text's order, is the order the
// greedy took it in.
template <class RankedNotes, class RankedOrder, class Greedy, class TakenBefore>
void check_first_of_each_note_is_greedy(const std::string& problem, RankedNotes ranked_notes, RankedOrder ranked_order,
                                        Greedy greedy, TakenBefore taken_before) {
  for (int seed = 0; seed < 30; ++seed) {
    GenerateOptions options;
    options.n = 30;
    const auto instance = problems::mis_mvc::generate(options, seed, problem);
    const Graph& g = instance->graph;
    int first = 0;
    for (int v = 1; v < g.n; ++v)
      if (taken_before(g.degree(v), g.degree(first))) first = v;
    std::vector<int> written = {first};
    for (;;) {
      const std::string note = ranked_notes(*instance, Solution::flat(written))[0].back();
      if (note.empty()) break;
      written.push_back(std::stoi(note.substr(1, note.find('#', 1) - 1)));  // "#12#3..." -> 12
    }
    std::vector<int> ascending = written;
    std::sort(ascending.begin(), ascending.end());
    EXPECT_EQ(ascending, greedy(g)) << problem << " seed " << seed;
    EXPECT_EQ(ranked_order(*instance, Solution::flat(ascending)), Solution::flat(written)) << problem << " seed " << seed;
  }
}

// MIS: min-degree greedy, starting at a vertex of least degree.
TEST(GraphHeuristics, TakingTheFirstOfEachRankedNoteIsMinDegreeGreedy) {
  check_first_of_each_note_is_greedy("mis", problems::mis_mvc::mis_ranked_notes, problems::mis_mvc::mis_ranked_order,
                                     min_degree_independent_set, std::less<int>());
}

// MVC: max-degree greedy, starting at a vertex of most edges; the note is "()" when the cover is complete.
TEST(GraphHeuristics, TakingTheFirstOfEachRankedNoteIsMaxDegreeGreedy) {
  check_first_of_each_note_is_greedy("mvc", problems::mis_mvc::mvc_ranked_notes, problems::mis_mvc::mvc_ranked_order,
                                     max_degree_vertex_cover, std::greater<int>());
}

TEST(GraphHeuristics, MinDegreeGreedyOnSmallGraphs) {
  // Star: the leaves (degree 1) come first, the centre never.
  const Graph star = Graph::from_edges(5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}});
  EXPECT_EQ(min_degree_independent_set(star), (std::vector<int>{1, 2, 3, 4}));
  // Path 0-1-2-3-4: 0 (degree 1) deletes 1; then 2 has degree 1 like 4, 2 is smaller: {0, 2, 4}.
  const Graph path = Graph::from_edges(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}});
  EXPECT_EQ(min_degree_independent_set(path), (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(max_degree_vertex_cover(path), (std::vector<int>{1, 3}));
  EXPECT_EQ(min_degree_independent_set(Graph::from_edges(3, {})), (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(max_degree_vertex_cover(Graph::from_edges(3, {})).empty());
}

TEST(GraphHeuristics, FeasibleAndNeverBetterThanTheBruteForceOptimum) {
  Rng rng(77);
  int mis_optimal = 0, mvc_optimal = 0, graphs = 0;
  for (int k = 0; k < 300; ++k) {
    GenerateOptions opt;
    opt.n = rng.uniform_int(1, 16);
    if (k % 2 && opt.n >= 3) {
      opt.distribution = "ba";
      opt.params["m"] = std::to_string(rng.uniform_int(1, 2));
    } else {
      opt.params["p"] = std::to_string(rng.uniform(0.05, 0.7));
    }
    const auto inst = problems::mis_mvc::generate(opt, k, "mis");
    const int alpha = brute_force_alpha(inst->graph);
    const Solution is = solver_by_name("mis", "greedy").solve(*inst, {});
    const Solution vc = solver_by_name("mvc", "greedy").solve(*inst, {});
    ASSERT_TRUE(problems::mis::problem().feasible(*inst, is)) << problems::mis_mvc::prompt(*inst, "MIS");
    ASSERT_TRUE(problems::mvc::problem().feasible(*inst, vc)) << problems::mis_mvc::prompt(*inst, "MVC");
    const int is_size = static_cast<int>(is.items().size()), vc_size = static_cast<int>(vc.items().size());
    EXPECT_LE(is_size, alpha);
    EXPECT_GE(vc_size, opt.n - alpha);  // tau = n - alpha
    mis_optimal += is_size == alpha;
    mvc_optimal += vc_size == opt.n - alpha;
    ++graphs;
  }
  // Optimal on many small graphs, but not on all (they are heuristics, and the test can tell).
  EXPECT_GT(mis_optimal, graphs / 2);
  EXPECT_LT(mis_optimal, graphs);
  EXPECT_GT(mvc_optimal, graphs / 4);
  EXPECT_LT(mvc_optimal, graphs);
}

TEST(GraphHeuristics, MvcGreedyIsRepairOfTheEmptySet) {
  Rng rng(5);
  Graph g = problems::erdos_renyi(60, 0.1, rng);
  EXPECT_EQ(max_degree_vertex_cover(g), problems::mvc::repair_set(g, {}));
}

}  // namespace
}  // namespace falcon::solvers
