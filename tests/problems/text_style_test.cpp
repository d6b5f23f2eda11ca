#include "falcon/problems/text_style.h"

#include <gtest/gtest.h>

#include <set>

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"
#include "falcon/problems/tsp.h"

namespace falcon::problems {
namespace {

std::shared_ptr<tsp::TspInstance> three_points() {
  auto inst = std::make_shared<tsp::TspInstance>();
  inst->geometry = RoutingGeometry::euclidean({{0.125, 0.875}, {0.5, 0.031}, {0.999, 0.041}});
  inst->name = "three";
  return inst;
}

const Problem& compact_tsp(int candidates) {
  return with_text_style(problem_by_name("tsp"), make_text_style("compact", candidates, "test"));
}

TEST(TextStyle, PaperIsTheProblemItself) {
  const Problem& tsp = problem_by_name("tsp");
  EXPECT_EQ(&with_text_style(tsp, TextStyle{}), &tsp);
  EXPECT_EQ(&compact_tsp(2), &compact_tsp(2));  // one adapter per (problem, candidates)
  EXPECT_NE(&compact_tsp(2), &compact_tsp(3));
}

TEST(TextStyle, CompactTspPromptHasIdsGridCoordinatesAndNearestNeighbours) {
  const auto inst = three_points();
  EXPECT_EQ(compact_tsp(0).prompt(*inst), "TSP:#0 12 87;#1 50 3;#2 99 4;");
  // Node 0 is nearer to 1 (0.92) than to 2 (1.21); node 1 nearer to 2 (0.50) than to 0 (0.92).
  EXPECT_EQ(compact_tsp(2).prompt(*inst), "TSP:#0 12 87:#1#2;#1 50 3:#2#0;#2 99 4:#1#0;");
  EXPECT_EQ(compact_tsp(1).prompt(*inst), "TSP:#0 12 87:#1;#1 50 3:#2;#2 99 4:#1;");
  EXPECT_EQ(compact_tsp(30).prompt(*inst), compact_tsp(2).prompt(*inst));  // at most n - 1 candidates
}

TEST(TextStyle, CompactTextRoundTripsAndMatchesItsGrammar) {
  const auto inst = three_points();
  const Problem& p = compact_tsp(2);
  const Solution tour = Solution::flat({0, 2, 1});
  const std::string text = p.format(*inst, tour);
  EXPECT_EQ(text.substr(0, 22), "Route: [#0, #2, #1], O");
  const ParseResult strict = p.parse(text);
  ASSERT_TRUE(strict.solution.has_value()) << strict.error;
  EXPECT_EQ(*strict.solution, tour);
  EXPECT_TRUE(p.grammar(*inst).accepts(text));
  EXPECT_FALSE(p.grammar(*inst).accepts("Route: [0, 2, 1], Objective: 1.00"));  // the paper's text
  EXPECT_FALSE(p.grammar(*inst).accepts("Route: [#0, #3, #1], Objective: 1.00"));  // out of range
  EXPECT_FALSE(p.parse("Route: [0, 2, 1], Objective: 1.00").solution.has_value());
  EXPECT_FALSE(p.parse("Route: [#0, 2], Objective: 1.00").solution.has_value());
  EXPECT_FALSE(p.parse("Route: [#, #2], Objective: 1.00").solution.has_value());
  EXPECT_EQ(p.parse("Route: [#2, #0, #", /*lenient=*/true).solution->items(), (std::vector<int>{2, 0}));
  EXPECT_EQ(p.grammar_name(), "tsp_compact");
  EXPECT_NE(p.grammar(*inst).to_bnf().find("\"#\" (\"0\" | ... | \"2\")"), std::string::npos);
}

TEST(TextStyle, OnlyTheTextChanges) {
  const auto inst = three_points();
  const Problem& paper = problem_by_name("tsp");
  const Problem& compact = compact_tsp(2);
  for (const Solution& s : {Solution::flat({0, 2, 1}), Solution::flat({2, 2}), Solution::flat({})}) {
    EXPECT_EQ(compact.objective(*inst, s), paper.objective(*inst, s));
    EXPECT_EQ(compact.feasible(*inst, s), paper.feasible(*inst, s));
    EXPECT_EQ(compact.violation(*inst, s), paper.violation(*inst, s));
    EXPECT_EQ(compact.repair(*inst, s), paper.repair(*inst, s));
  }
  EXPECT_EQ(compact.name(), "tsp");
  EXPECT_EQ(compact.sense(), paper.sense());
}

TEST(TextStyle, BadStylesAreNamedErrors) {
  EXPECT_THROW(make_text_style("fancy", 0, "r.yaml: text"), Error);
  EXPECT_THROW(make_text_style("compact", -1, "r.yaml: text"), Error);
  EXPECT_THROW(make_text_style("compact", 33, "r.yaml: text"), Error);
  EXPECT_THROW(make_text_style("paper", 4, "r.yaml: text"), Error);
  try {
    make_text_style("fancy", 0, "r.yaml: text");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("r.yaml: text"), std::string::npos);
  }
  // Problems without a compact prompt yet say so, naming the problem and the way out.
  const Problem& cvrp = with_text_style(problem_by_name("cvrp"), make_text_style("compact", 0, "t"));
  GenerateOptions options;
  try {
    cvrp.prompt(*cvrp.generate(options, 1));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cvrp"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("text.style: paper"), std::string::npos);
  }
}

TEST(TextStyle, DescribeNamesStyleAndCandidates) {
  EXPECT_EQ(describe(TextStyle{}), "paper");
  EXPECT_EQ(describe(make_text_style("compact", 0, "t")), "compact");
  EXPECT_EQ(describe(make_text_style("compact", 4, "t")), "compact, 4 candidates");
}

}  // namespace
}  // namespace falcon::problems

namespace falcon::problems {
namespace {

TEST(SymmetricCopy, TspKeepsTheObjectiveAndChangesTheText) {
  GenerateOptions options;
  options.n = 12;
  const Problem& tsp = problem_by_name("tsp");
  const auto inst = tsp.generate(options, 5);
  std::vector<int> order{0, 3, 1, 7, 2, 9, 4, 11, 5, 8, 6, 10};
  const Solution tour = Solution::flat(order);
  Rng rng(1);
  std::set<std::string> texts;
  for (int k = 0; k < 16; ++k) {
    const SymmetricCopy copy = tsp.symmetric_copy(*inst, tour, rng);
    EXPECT_TRUE(tsp.feasible(*copy.instance, copy.solution));
    EXPECT_EQ(copy.solution.items().front(), 0);  // labels start at node 0
    EXPECT_NEAR(tsp.objective(*copy.instance, copy.solution), tsp.objective(*inst, tour), 1e-9);
    for (const auto& p : static_cast<const tsp::TspInstance&>(*copy.instance).geometry.coords) {
      EXPECT_GE(p.x, 0.0);
      EXPECT_LT(p.x, 1.0);  // unit-square instances stay in the square: same prompt grid
      EXPECT_GE(p.y, 0.0);
      EXPECT_LT(p.y, 1.0);
    }
    texts.insert(tsp.prompt(*copy.instance) + tsp.format(*copy.instance, copy.solution));
  }
  EXPECT_GT(texts.size(), 12u);
  // The compact style draws the same copies.
  Rng a(9), b(9);
  EXPECT_EQ(compact_tsp(4).symmetric_copy(*inst, tour, a).solution, tsp.symmetric_copy(*inst, tour, b).solution);
}

TEST(SymmetricCopy, ProblemsWithoutSymmetriesSaySo) {
  GenerateOptions options;
  const Problem& cvrp = problem_by_name("cvrp");
  Rng rng(1);
  try {
    cvrp.symmetric_copy(*cvrp.generate(options, 1), Solution{}, rng);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cvrp"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("data.augment"), std::string::npos);
  }
}

}  // namespace
}  // namespace falcon::problems
