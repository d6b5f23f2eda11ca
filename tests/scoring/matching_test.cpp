#include "falcon/scoring/matching.h"

#include <gtest/gtest.h>

#include "falcon/core/error.h"

namespace falcon::scoring {
namespace {

SampleOutcome outcome(std::vector<int> items, double objective) {
  SampleOutcome o;
  o.solution = problems::Solution::flat(std::move(items));
  o.objective = objective;
  o.feasible = true;
  return o;
}

TEST(MatchClasses, SolutionMatchingComparesTheDeliveredLists) {
  MatchClasses classes(Match::kSolution);
  EXPECT_EQ(classes.add(outcome({0, 1, 2}, 3.0)), 0);
  EXPECT_EQ(classes.add(outcome({0, 2, 1}, 3.0)), 1);  // same length, another tour
  EXPECT_EQ(classes.add(outcome({1, 2, 0}, 3.0)), 2);  // a rotation is another text
  EXPECT_EQ(classes.add(outcome({0, 1, 2}, 3.0)), 0);
}

TEST(MatchClasses, ObjectiveMatchingUsesARelativeTolerance) {
  MatchClasses classes(Match::kObjective);
  EXPECT_EQ(classes.add(outcome({0, 1, 2}, 1000.0)), 0);
  EXPECT_EQ(classes.add(outcome({0, 2, 1}, 1000.0 + 1e-8)), 0);
  EXPECT_EQ(classes.add(outcome({0, 2, 1}, 1000.1)), 1);
}

TEST(MatchClasses, NamesParseAndUnknownNamesAreErrors) {
  EXPECT_EQ(match_from_string("objective", "x"), Match::kObjective);
  EXPECT_EQ(to_string(Match::kSolution), "solution");
  EXPECT_THROW(match_from_string("text", "rows[0].match"), Error);
}

}  // namespace
}  // namespace falcon::scoring
