#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/registry.h"
#include "tests/problems/graph_inputs.h"
#include "tests/problems/repair_properties.h"
#include "tests/benchmark_files.h"

namespace falcon::problems::mis {
namespace {

std::shared_ptr<GraphInstance> make(int n, std::vector<std::pair<int, int>> edges) {
  auto inst = std::make_shared<GraphInstance>();
  inst->graph = Graph::from_edges(n, std::move(edges));
  inst->name = "fixture";
  return inst;
}

// 0-1-2-3 path plus a triangle 4-5-6.
std::shared_ptr<GraphInstance> path_and_triangle() { return make(7, {{0, 1}, {1, 2}, {2, 3}, {4, 5}, {5, 6}, {4, 6}}); }

TEST(Mis, RegisteredAndMaximising) {
  EXPECT_EQ(&problem_by_name("mis"), &problem());
  EXPECT_EQ(problem().sense(), Sense::kMaximize);
  EXPECT_EQ(problem().locality_constant(), 1.0);
}

TEST(Mis, ObjectiveFeasibilityViolationAndText) {
  const auto inst = path_and_triangle();
  const Solution good = Solution::flat({3, 0, 5});
  EXPECT_TRUE(problem().feasible(*inst, good));
  EXPECT_EQ(problem().objective(*inst, good), 3.0);
  EXPECT_EQ(problem().format(*inst, good), "Set: [3, 0, 5], Objective: 3.00");
  EXPECT_TRUE(problem().feasible(*inst, Solution::flat({})));
  EXPECT_EQ(problem().format(*inst, Solution::flat({})), "Set: [], Objective: 0.00");
  EXPECT_FALSE(problem().feasible(*inst, Solution{}));  // no list at all
  EXPECT_EQ(problem().violation(*inst, Solution{}), 1.0);
  EXPECT_FALSE(problem().feasible(*inst, Solution::flat({0, 1})));
  // 2 invalid (7, -1) + 1 duplicate (0) + conflicts {0-1, 1-2, 4-5, 4-6, 5-6} = 8.
  EXPECT_EQ(problem().violation(*inst, Solution::flat({0, 1, 2, 7, 0, -1, 4, 5, 6})), 8.0);
  EXPECT_EQ(problem().violation(*inst, Solution::flat({kIndexOverflow})), 1.0);
  EXPECT_EQ(conflicting_edges(inst->graph, {4, 5, 6, 6}), 3);
}

TEST(Mis, GrammarAcceptsTheEmptySetAndOnlyInstanceIds) {
  const auto inst = path_and_triangle();
  const GrammarSpec g = problem().grammar(*inst);
  EXPECT_TRUE(g.accepts("Set: [], Objective: 0.00"));
  EXPECT_TRUE(g.accepts("Set: [6, 0], Objective: 2.00"));
  EXPECT_FALSE(g.accepts("Set: [7], Objective: 1.00"));
  EXPECT_FALSE(g.accepts("Route: [0], Objective: 1.00"));
  const ParseResult r = problem().parse("Set: [5, 2], Objective: 2.00");
  ASSERT_TRUE(r.solution.has_value());
  EXPECT_EQ(r.solution->items(), (std::vector<int>{5, 2}));
}

TEST(Mis, RepairRemovesTheVertexWithMoreConflicts) {
  const auto inst = path_and_triangle();
  // Path 0-1-2: 1 has two neighbours in the set, 0 and 2 one each: remove 1.
  EXPECT_EQ(repair_set(inst->graph, {0, 1, 2}), (std::vector<int>{0, 2}));
  // Triangle: all tie at 2, the last listed (6) goes; then 4, 5 tie at 1: 5 goes.
  EXPECT_EQ(repair_set(inst->graph, {4, 5, 6}), (std::vector<int>{4}));
  EXPECT_EQ(repair_set(inst->graph, {6, 5, 4}), (std::vector<int>{6}));
  // Invalid and repeated ids are dropped, the kept order is the input's.
  EXPECT_EQ(repair_set(inst->graph, {3, 9, 0, 3, -4, 6, kIndexOverflow}), (std::vector<int>{3, 0, 6}));
  // A feasible input in any order comes back unchanged.
  const Solution feasible_input = Solution::flat({6, 3, 1});
  EXPECT_EQ(problem().repair(*inst, feasible_input), feasible_input);
  // Star: the centre conflicts with every leaf.
  const auto star = make(5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}});
  EXPECT_EQ(repair_set(star->graph, {1, 0, 2, 3, 4}), (std::vector<int>{1, 2, 3, 4}));
}

// Appendix E's loop as written: recompute the conflicts and degrees every round, select the
// conflict (w, x) at the vertex w of largest (in-set degree, input position), and apply the
// paper's rule to (u, v) = (w, x). O(n |E|) per round; for checking only.
std::vector<int> paper_mis_repair(const Graph& g, const std::vector<int>& items) {
  std::vector<int> s;
  for (int v : items) {
    if (v >= 0 && v < g.n && std::find(s.begin(), s.end(), v) == s.end()) s.push_back(v);
  }
  auto in_set = [&](int v) { return std::find(s.begin(), s.end(), v) != s.end(); };
  auto degree = [&](int v) {
    int d = 0;
    for (int w : s) d += g.adjacent(v, w);
    return d;
  };
  while (true) {
    int u = -1, v = -1, best_pos = -1;
    for (const auto& [a, b] : g.edges) {
      if (!in_set(a) || !in_set(b)) continue;
      for (int w : {a, b}) {
        const int pos = static_cast<int>(std::find(s.begin(), s.end(), w) - s.begin());
        if (u < 0 || degree(w) > degree(u) || (degree(w) == degree(u) && pos > best_pos)) {
          u = w, v = w == a ? b : a, best_pos = pos;
        }
      }
    }
    if (u < 0) return s;
    const int du = degree(u), dv = degree(v);
    const int removed = du > dv ? u : (dv > du ? v : u);
    EXPECT_EQ(removed, u);
    s.erase(std::find(s.begin(), s.end(), removed));
  }
}

TEST(Mis, RepairEqualsThePapersLoop) {
  Rng rng(11);
  for (int k = 0; k < 600; ++k) {
    const GenerateOptions opt = testing::small_graph_options(rng, k);
    const auto inst = mis_mvc::generate(opt, 500 + k, "mis");
    const Solution x = testing::graph_set_input(rng, inst->graph, /*cover=*/false);
    ASSERT_EQ(repair_set(inst->graph, x.items()), paper_mis_repair(inst->graph, x.items()))
        << testing::debug_string(x) << " on " << mis_mvc::prompt(*inst, "MIS");
  }
}

TEST(Mis, RepairPropertiesOnTwelveThousandInputs) {
  Rng rng(2025);
  int feasible_inputs = 0, cases = 0;
  for (int k = 0; k < 24; ++k) {
    const GenerateOptions opt = testing::mixed_graph_options(rng, k);
    const auto inst = mis_mvc::generate(opt, 300 + k, "mis");
    const auto stats = testing::check_repair_properties(
        problem(), *inst, 500, rng, [&](Rng& r) { return testing::graph_set_input(r, inst->graph, /*cover=*/false); });
    feasible_inputs += stats.feasible_inputs;
    cases += stats.cases;
    if (HasFailure()) return;
  }
  EXPECT_EQ(cases, 12000);
  EXPECT_GT(feasible_inputs, 2000);  // property (2) was exercised, not only (1) and (3)
}

TEST(Mis, PromptListsEachEdgeOnceAscending) {
  const auto inst = make(5, {{3, 0}, {1, 0}, {4, 2}});
  EXPECT_EQ(problem().prompt(*inst), "MIS n=5: 0:1,3 2:4");
  EXPECT_EQ(problem().prompt(*make(2, {})), "MIS n=2:");
}

TEST(Mis, GeneratorKeysDistributionsAndNames) {
  GenerateOptions opt;
  opt.n = 50;
  const auto a = problem().generate(opt, 4);
  EXPECT_EQ(a->name, "mis-n50-s4");
  EXPECT_EQ(a->size(), 50);
  const auto& g = instance_as<GraphInstance>(*a, "mis").graph;
  EXPECT_EQ(g.edges, instance_as<GraphInstance>(*problem().generate(opt, 4), "mis").graph.edges);
  EXPECT_NEAR(g.m(), 0.15 * 50 * 49 / 2, 60);  // default p = 0.15
  opt.distribution = "ba";
  const auto b = problem().generate(opt, 4);
  EXPECT_EQ(instance_as<GraphInstance>(*b, "mis").graph.m(), 4 + 45 * 4);  // default m = 4
  opt.params["p"] = "0.3";  // p belongs to er
  EXPECT_THROW(problem().generate(opt, 4), Error);
  GenerateOptions bad;
  bad.distribution = "ws";
  EXPECT_THROW(problem().generate(bad, 1), Error);
  bad.distribution = "er";
  bad.params["p"] = "1.5";
  EXPECT_THROW(problem().generate(bad, 1), Error);
  bad.params["p"] = "0.1";
  bad.n = 0;
  EXPECT_THROW(problem().generate(bad, 1), Error);
}

TEST(Mis, ClqFilesAreReadAsTheirComplement) {
  const auto inst = problem().read_file(std::string(FALCON_FIXTURES_DIR) + "/mis/tiny.clq");
  const auto& g = instance_as<GraphInstance>(*inst, "mis").graph;
  EXPECT_EQ(inst->name, "tiny");
  EXPECT_EQ(g.m(), 10 - 4);
  EXPECT_TRUE(problem().feasible(*inst, Solution::flat({0, 1, 2})));  // the clique of the file
  EXPECT_FALSE(problem().feasible(*inst, Solution::flat({0, 3})));
  // Other extensions are read as written.
  const auto path = problem().read_file(std::string(FALCON_FIXTURES_DIR) + "/mis/path5.mis");
  EXPECT_EQ(instance_as<GraphInstance>(*path, "mis").graph.m(), 4);
}

// Found by instance_file_fuzzer: "p edge 7403 0" in a .clq file took 36 s and 27 million edges
// to complement. A complement past the limit is refused, naming the file and the way out.
TEST(Mis, ClqFileWithAHugeComplementIsRefused) {
  const std::string file = std::string(FALCON_FIXTURES_DIR) + "/mis/sparse_huge.clq";
  try {
    problem().read_file(file);
    ADD_FAILURE() << "a 4000-vertex edgeless clique file was accepted";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(file), std::string::npos) << msg;
    EXPECT_NE(msg.find("7998000 edges"), std::string::npos) << msg;
    EXPECT_NE(msg.find("copy it to a .mis file"), std::string::npos) << msg;
  }
}

// The "Clique Elements are:" list of a DIMACS comment header as 0-based ids, or empty.
std::vector<int> certified_clique(const std::string& path, int base) {
  std::ifstream in(path);
  std::vector<int> clique;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("c", 0) != 0) break;
    if (line.find("Clique Elements are:") != std::string::npos) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    std::istringstream tokens(line.substr(1));
    int v = 0, count = 0;
    while (tokens >> v) clique.push_back(v - base), ++count;
    if (count == 0) break;  // "c" alone ends the list; MANN's "*" also stops the stream
  }
  return clique;
}

TEST(Mis, CertifiedCliquesAreMaximumIndependentSetsOfTheComplement) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  // alpha from benchmarks/mis/README; the brock and MANN files list a clique of that size.
  // The brock generator numbers the listed vertices from 0 (read 1-based, only 30 of the 66
  // pairs of brock200_2's list are edges; read 0-based, all are), MANN from 1.
  struct Certified {
    const char* name;
    int alpha;
    int base;
  };
  const Certified certified[] = {
      {"brock200_2", 12, 0}, {"brock200_4", 17, 0}, {"brock400_2", 29, 0}, {"brock400_4", 33, 0}, {"MANN_a27", 126, 1}};
  for (const auto& [name, alpha, base] : certified) {
    SCOPED_TRACE(name);
    const std::string path = std::string(FALCON_BENCHMARKS_DIR) + "/mis/dimacs_clique/" + name + ".clq";
    const auto inst = problem().read_file(path);
    const std::vector<int> set = certified_clique(path, base);
    ASSERT_EQ(static_cast<int>(set.size()), alpha);
    const Solution s = Solution::flat(set);
    EXPECT_TRUE(problem().feasible(*inst, s));
    EXPECT_EQ(problem().objective(*inst, s), alpha);
    EXPECT_EQ(problem().repair(*inst, s), s);
    // Duality: the other vertices cover the complement graph, with n - alpha vertices.
    std::vector<int> rest;
    for (int v = 0; v < inst->size(); ++v) {
      if (std::find(set.begin(), set.end(), v) == set.end()) rest.push_back(v);
    }
    EXPECT_TRUE(mvc::problem().feasible(*inst, Solution::flat(rest)));
    EXPECT_EQ(mvc::problem().objective(*inst, Solution::flat(rest)), inst->size() - alpha);
  }
}

TEST(Mis, IndependentExactlyWhenTheComplementCovers) {
  Rng rng(8);
  int independent = 0;
  for (int k = 0; k < 2000; ++k) {
    GenerateOptions opt;
    opt.n = rng.uniform_int(1, 25);
    opt.params["p"] = std::to_string(rng.uniform(0.0, 0.5));
    const auto inst = mis_mvc::generate(opt, k, "mis");
    std::vector<int> s, rest;
    const double q = rng.uniform();
    for (int v = 0; v < opt.n; ++v) (rng.bernoulli(q) ? s : rest).push_back(v);
    const bool is_independent = problem().feasible(*inst, Solution::flat(s));
    independent += is_independent;
    ASSERT_EQ(is_independent, mvc::problem().feasible(*inst, Solution::flat(rest)));
  }
  EXPECT_GT(independent, 200);
  EXPECT_LT(independent, 1800);
}

}  // namespace
}  // namespace falcon::problems::mis
