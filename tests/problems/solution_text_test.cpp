#include "falcon/problems/solution_text.h"

#include <gtest/gtest.h>

#include "falcon/problems/grammar_spec.h"

namespace falcon::problems {
namespace {

const TextFormat kRoute{"Route", false, 0};
const TextFormat kRoutes{"Routes", true, 0};
const TextFormat kOrder{"Order", false, 1};

TEST(SolutionText, FormatsEachShape) {
  EXPECT_EQ(format_solution(kRoute, Solution::flat({0, 2, 1}), 12.345), "Route: [0, 2, 1], Objective: 12.35");
  EXPECT_EQ(format_solution(kRoute, Solution::flat({}), 0), "Route: [], Objective: 0.00");
  EXPECT_EQ(format_solution(kRoutes, Solution{{{1, 2}, {3}}}, 5), "Routes: [[1, 2], [3]], Objective: 5.00");
  EXPECT_EQ(format_solution(kOrder, Solution::flat({0, 1}), 7), "Order: [1, 2], Objective: 7.00");
}

TEST(SolutionText, StrictParsesWhatItFormats) {
  for (const auto& [fmt, sol] : std::vector<std::pair<TextFormat, Solution>>{
           {kRoute, Solution::flat({0, 2, 1})}, {kRoute, Solution::flat({})},
           {kRoutes, Solution{{{1, 2}, {3}, {}}}}, {kOrder, Solution::flat({4, 0, 2})}}) {
    const ParseResult r = parse_solution_strict(fmt, format_solution(fmt, sol, 3.5));
    ASSERT_TRUE(r.solution.has_value()) << r.error;
    EXPECT_EQ(*r.solution, sol);
    EXPECT_DOUBLE_EQ(*r.objective, 3.5);
  }
}

TEST(SolutionText, StrictRejectsNearMisses) {
  for (const char* bad : {"", "Route: [0, 1], Objective: 3", "Route: [0,1], Objective: 3.0", "Route: [0, 1] Objective: 3.0",
                          "Route: [0, 1, ], Objective: 3.0", "Routes: [0, 1], Objective: 3.0", "Route: [0, 1], Objective: 3.0 x",
                          "Route: [-1], Objective: 1.0", "Route: [0, 1], Objective: .5"}) {
    EXPECT_FALSE(parse_solution_strict(kRoute, bad).solution.has_value()) << bad;
  }
  const ParseResult r = parse_solution_strict(kRoute, "Route: [0, x]");
  EXPECT_EQ(r.error_offset, 11u);  // at the "x"
  EXPECT_FALSE(r.error.empty());
}

TEST(SolutionText, OneBasedZeroAndHugeNumbersBecomeInvalidIndices) {
  const ParseResult r = parse_solution_strict(kOrder, "Order: [0, 99999999999999999999999, 3], Objective: 1.00");
  ASSERT_TRUE(r.solution.has_value());
  EXPECT_EQ(r.solution->items(), (std::vector<int>{-1, kIndexOverflow, 2}));
}

TEST(SolutionText, LenientSalvagesTruncatedAndGarbledText) {
  EXPECT_EQ(parse_solution_lenient(kRoute, "Route: [3, 1, 4, 1").solution->items(), (std::vector<int>{3, 1, 4, 1}));
  EXPECT_EQ(parse_solution_lenient(kRoute, "blah [5;;6 x7]").solution->items(), (std::vector<int>{5, 6, 7}));
  const auto nested = parse_solution_lenient(kRoutes, "Routes: [[1, 2], [3, 4").solution;
  EXPECT_EQ(nested->lists, (std::vector<std::vector<int>>{{1, 2}, {3, 4}}));
  const auto loose = parse_solution_lenient(kRoutes, "Routes: [1, 2, [3], 4]").solution;
  EXPECT_EQ(loose->lists, (std::vector<std::vector<int>>{{1, 2}, {3}, {4}}));
  EXPECT_FALSE(parse_solution_lenient(kRoute, "no brackets").solution.has_value());
  EXPECT_DOUBLE_EQ(*parse_solution_lenient(kRoute, "Route: [1], Objective: 2.5").objective, 2.5);
}

TEST(SolutionText, NoteIdsReadRankedAndKeyedNotesAndNothingElse) {
  using Ids = std::vector<std::string_view>;
  EXPECT_EQ(note_ids("#7#5#12"), Ids({"7", "5", "12"}));
  EXPECT_EQ(note_ids("1:#7#5 12:#9"), Ids({"7", "5", "9"}));  // a keyed note's counts are no IDs
  EXPECT_EQ(note_ids(""), Ids());                               // nothing left to pick
  for (const char* not_a_list : {"23", "#3:#0#1", "#", "1:", "#7 #5", " #7", "#7x", "1#7", ":#7", "1:#7 "})
    EXPECT_FALSE(note_ids(not_a_list).has_value()) << not_a_list;
}

TEST(GrammarSpec, AcceptsOnlyInRangeIndicesWithoutLeadingZeros) {
  const GrammarSpec tsp{"Route", false, false, 0, 102};
  EXPECT_TRUE(tsp.accepts("Route: [0, 102, 5], Objective: 1.00"));
  EXPECT_FALSE(tsp.accepts("Route: [0, 103], Objective: 1.00"));
  EXPECT_FALSE(tsp.accepts("Route: [05], Objective: 1.00"));
  EXPECT_FALSE(tsp.accepts("Route: [], Objective: 1.00"));
  const GrammarSpec set{"Set", false, true, 0, 9};
  EXPECT_TRUE(set.accepts("Set: [], Objective: 0.00"));
  const GrammarSpec jssp{"Schedule", true, false, 1, 3};
  EXPECT_TRUE(jssp.accepts("Schedule: [[1, 2, 3], [3, 1, 2]], Objective: 10.00"));
  EXPECT_FALSE(jssp.accepts("Schedule: [[1, 2, 3], []], Objective: 10.00"));
  EXPECT_FALSE(jssp.accepts("Schedule: [[0, 1]], Objective: 10.00"));
  EXPECT_NE(jssp.to_bnf().find("\"1\" | ... | \"3\""), std::string::npos);
}

}  // namespace
}  // namespace falcon::problems
