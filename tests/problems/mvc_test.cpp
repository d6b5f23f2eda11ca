#include <gtest/gtest.h>

#include <algorithm>

#include "falcon/core/error.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/registry.h"
#include "tests/problems/graph_inputs.h"
#include "tests/problems/repair_properties.h"

namespace falcon::problems::mvc {
namespace {

std::shared_ptr<GraphInstance> make(int n, std::vector<std::pair<int, int>> edges) {
  auto inst = std::make_shared<GraphInstance>();
  inst->graph = Graph::from_edges(n, std::move(edges));
  inst->name = "fixture";
  return inst;
}

// 0-1-2-3 path plus a triangle 4-5-6.
std::shared_ptr<GraphInstance> path_and_triangle() { return make(7, {{0, 1}, {1, 2}, {2, 3}, {4, 5}, {5, 6}, {4, 6}}); }

TEST(Mvc, RegisteredAndMinimising) {
  EXPECT_EQ(&problem_by_name("mvc"), &problem());
  EXPECT_EQ(problem().sense(), Sense::kMinimize);
  EXPECT_EQ(problem().text_format().keyword, "Set");
  EXPECT_TRUE(problem().grammar(*path_and_triangle()).allow_empty);
}

TEST(Mvc, ObjectiveFeasibilityViolationAndText) {
  const auto inst = path_and_triangle();
  const Solution good = Solution::flat({5, 1, 2, 4});
  EXPECT_TRUE(problem().feasible(*inst, good));
  EXPECT_EQ(problem().objective(*inst, good), 4.0);
  EXPECT_EQ(problem().format(*inst, good), "Set: [5, 1, 2, 4], Objective: 4.00");
  EXPECT_FALSE(problem().feasible(*inst, Solution::flat({})));
  EXPECT_EQ(problem().violation(*inst, Solution::flat({})), 6.0);
  EXPECT_TRUE(problem().feasible(*make(3, {}), Solution::flat({})));  // no edges: empty cover
  // 1 invalid (8) + 1 duplicate (1) + uncovered {2-3, 4-6} = 4.
  EXPECT_EQ(problem().violation(*inst, Solution::flat({1, 8, 5, 1})), 4.0);
  EXPECT_EQ(uncovered_edges(inst->graph, {1, 8, 5, 1}), 2);
  EXPECT_FALSE(problem().feasible(*inst, Solution{{{0, 1, 2, 3, 4, 5, 6}, {}}}));  // two lists
}

TEST(Mvc, RepairAddsTheEndpointWithMoreUncoveredEdges) {
  const auto inst = path_and_triangle();
  // From nothing: 1, 2, 4, 5, 6 all have 2 uncovered edges: 1 (smallest id) goes in; then 4,
  // the only vertex left with 2; then 2-3 and 5-6 remain, all four tie at 1: 2, then 5.
  EXPECT_EQ(repair_set(inst->graph, {}), (std::vector<int>{1, 2, 4, 5}));
  // Kept ids first, in input order (invalid and repeated dropped), then the added ascending.
  EXPECT_EQ(repair_set(inst->graph, {6, 9, 2, 6, -1}), (std::vector<int>{6, 2, 0, 4}));
  const Solution feasible_input = Solution::flat({6, 4, 2, 1});
  EXPECT_EQ(problem().repair(*inst, feasible_input), feasible_input);
  // Star from nothing: the centre covers everything.
  EXPECT_EQ(repair_set(make(5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}})->graph, {3}), (std::vector<int>{3, 0}));
}

// Appendix E's loop as written: recompute the uncovered edges and degrees every round, select
// the uncovered edge (w, x) at the vertex w of most uncovered edges (smallest id on a tie),
// apply the paper's rule to (u, v) = (w, x). For checking only.
std::vector<int> paper_mvc_repair(const Graph& g, const std::vector<int>& items) {
  std::vector<int> s;
  for (int v : items) {
    if (v >= 0 && v < g.n && std::find(s.begin(), s.end(), v) == s.end()) s.push_back(v);
  }
  std::vector<char> in(static_cast<std::size_t>(g.n), 0);
  for (int v : s) in[v] = 1;
  std::vector<int> added;
  while (true) {
    std::vector<int> degree(static_cast<std::size_t>(g.n), 0);
    for (const auto& [a, b] : g.edges) {
      if (!in[a] && !in[b]) ++degree[a], ++degree[b];
    }
    int u = -1, v = -1;
    for (const auto& [a, b] : g.edges) {
      if (in[a] || in[b]) continue;
      for (int w : {a, b}) {
        if (u < 0 || degree[w] > degree[u] || (degree[w] == degree[u] && w < u)) u = w, v = w == a ? b : a;
      }
    }
    if (u < 0) break;
    const int chosen = degree[u] >= degree[v] ? u : v;
    EXPECT_EQ(chosen, u);
    in[chosen] = 1;
    added.push_back(chosen);
  }
  std::sort(added.begin(), added.end());
  s.insert(s.end(), added.begin(), added.end());
  return s;
}

TEST(Mvc, RepairEqualsThePapersLoop) {
  Rng rng(12);
  for (int k = 0; k < 600; ++k) {
    const GenerateOptions opt = testing::small_graph_options(rng, k);
    const auto inst = mis_mvc::generate(opt, 900 + k, "mvc");
    const Solution x = testing::graph_set_input(rng, inst->graph, /*cover=*/true);
    ASSERT_EQ(repair_set(inst->graph, x.items()), paper_mvc_repair(inst->graph, x.items()))
        << testing::debug_string(x) << " on " << mis_mvc::prompt(*inst, "MVC");
  }
}

TEST(Mvc, RepairPropertiesOnTwelveThousandInputs) {
  Rng rng(2026);
  int feasible_inputs = 0, cases = 0;
  for (int k = 0; k < 24; ++k) {
    const GenerateOptions opt = testing::mixed_graph_options(rng, k);
    const auto inst = mis_mvc::generate(opt, 700 + k, "mvc");
    const auto stats = testing::check_repair_properties(
        problem(), *inst, 500, rng, [&](Rng& r) { return testing::graph_set_input(r, inst->graph, /*cover=*/true); });
    feasible_inputs += stats.feasible_inputs;
    cases += stats.cases;
    if (HasFailure()) return;
  }
  EXPECT_EQ(cases, 12000);
  EXPECT_GT(feasible_inputs, 2000);
}

TEST(Mvc, PromptAndGeneratedNames) {
  EXPECT_EQ(problem().prompt(*make(5, {{3, 0}, {1, 0}, {4, 2}})), "MVC n=5: 0:1,3 2:4");
  GenerateOptions opt;
  opt.n = 30;
  opt.distribution = "ba";
  opt.params["m"] = "2";
  const auto inst = problem().generate(opt, 3);
  EXPECT_EQ(inst->name, "mvc-n30-s3");
  // Same seed and keys as MIS: the same graph, only the name differs.
  const auto same = mis::problem().generate(opt, 3);
  EXPECT_EQ(instance_as<GraphInstance>(*inst, "mvc").graph.edges, instance_as<GraphInstance>(*same, "mis").graph.edges);
}

TEST(Mvc, ReadsClqComplementLikeMis) {
  const auto inst = problem().read_file(std::string(FALCON_FIXTURES_DIR) + "/mis/tiny.clq");
  // Complement of {0-1, 0-2, 1-2, 3-4}: the complete bipartite graph {0,1,2} x {3,4}.
  EXPECT_TRUE(problem().feasible(*inst, Solution::flat({3, 4})));
  EXPECT_TRUE(problem().feasible(*inst, Solution::flat({0, 1, 2})));
  EXPECT_FALSE(problem().feasible(*inst, Solution::flat({0, 1, 3})));  // 2-4 uncovered
  EXPECT_EQ(repair_set(instance_as<GraphInstance>(*inst, "mvc").graph, {}), (std::vector<int>{3, 4}));
}

}  // namespace
}  // namespace falcon::problems::mvc
