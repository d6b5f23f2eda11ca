#include "falcon/scoring/adaptive.h"

#include <gtest/gtest.h>

#include "falcon/core/error.h"

namespace falcon::scoring {
namespace {

using problems::Sense;

std::vector<Draw> same(int count, double objective, int cls) {
  return std::vector<Draw>(count, Draw{/*feasible=*/true, objective, cls});
}

std::vector<Draw> operator+(std::vector<Draw> a, const std::vector<Draw>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(BetaBinomialConfidence, HandComputedValues) {
  EXPECT_DOUBLE_EQ(beta_binomial_confidence(8, 8), 9.0 / 10.0);   // all 8 agree: 0.9
  EXPECT_DOUBLE_EQ(beta_binomial_confidence(7, 8), 8.0 / 10.0);   // 0.8
  EXPECT_DOUBLE_EQ(beta_binomial_confidence(0, 0), 0.5);          // the prior mean
  EXPECT_DOUBLE_EQ(beta_binomial_confidence(3, 10, 2.0, 3.0), 5.0 / 15.0);
}

TEST(AdaptiveDecision, EightAgreeingSamplesStopAtNMin) {
  const AdaptiveRule rule;  // 8, 64, 0.85
  const auto d = adaptive_decision(same(8, 5.0, 0), rule, Sense::kMinimize);
  EXPECT_EQ(d.stop, StopReason::kConfidence);
  EXPECT_EQ(d.samples, 8);
  EXPECT_EQ(d.matches, 8);
  EXPECT_DOUBLE_EQ(d.confidence, 0.9);
}

TEST(AdaptiveDecision, NoDecisionBeforeNMin) {
  const auto d = adaptive_decision(same(7, 5.0, 0), AdaptiveRule{}, Sense::kMinimize);
  EXPECT_EQ(d.stop, StopReason::kNone);
  EXPECT_EQ(d.samples, 7);
  EXPECT_EQ(d.confidence, 0.0);
}

TEST(AdaptiveDecision, OneWorseOutlierDelaysTheStopUntilConfidenceReachesTau) {
  // y* = class 0 (objective 5); sample 3 is worse (6). n_{y*} = n - 1:
  // n=8: 8/10 = 0.800, n=9: 9/11 = 0.818, n=10: 10/12 = 0.833, n=11: 11/13 = 0.846,
  // n=12: 12/14 = 0.857 >= 0.85 -> stop at 12.
  const auto draws = same(3, 5.0, 0) + same(1, 6.0, 1) + same(20, 5.0, 0);
  const auto d = adaptive_decision(draws, AdaptiveRule{}, Sense::kMinimize);
  EXPECT_EQ(d.stop, StopReason::kConfidence);
  EXPECT_EQ(d.samples, 12);
  EXPECT_EQ(d.matches, 11);
  EXPECT_DOUBLE_EQ(d.confidence, 12.0 / 14.0);
  EXPECT_EQ(d.best, 0);
}

TEST(AdaptiveDecision, ARareBetterSolutionIsYStarAndRunsToTheBudget) {
  // A single better sample becomes y*; it never recurs, so Conf = 2/(n+2) and the budget stops.
  AdaptiveRule rule;
  rule.n_max = 16;
  const auto draws = same(2, 5.0, 0) + same(1, 4.0, 1) + same(30, 5.0, 0);
  const auto d = adaptive_decision(draws, rule, Sense::kMinimize);
  EXPECT_EQ(d.stop, StopReason::kBudget);
  EXPECT_EQ(d.samples, 16);
  EXPECT_EQ(d.best, 2);
  EXPECT_EQ(d.matches, 1);
  EXPECT_DOUBLE_EQ(d.confidence, 2.0 / 18.0);
}

TEST(AdaptiveDecision, MaximisationPicksTheLargestObjective) {
  const auto draws = same(1, 5.0, 0) + same(9, 7.0, 1);
  const auto d = adaptive_decision(draws, AdaptiveRule{}, Sense::kMaximize);
  EXPECT_EQ(d.best, 1);
  // n=8: class 1 has 7 of 8 -> 0.8; n=9: 8 of 9 -> 9/11 = 0.818; n=10: 9/12 = 0.833: no stop.
  EXPECT_EQ(d.stop, StopReason::kNone);
  EXPECT_EQ(d.samples, 10);
  EXPECT_EQ(d.matches, 9);
}

TEST(AdaptiveDecision, FeasibleBeatsABetterObjectiveThatIsInfeasible) {
  std::vector<Draw> draws = {{false, 1.0, 0}, {true, 9.0, 1}, {false, 1.0, 0}};
  EXPECT_EQ(best_draw(draws, 3, Sense::kMinimize), 1);
  EXPECT_EQ(best_draw(draws, 1, Sense::kMinimize), 0);  // only infeasible so far: the first
  EXPECT_EQ(best_draw(draws, 0, Sense::kMinimize), -1);
}

TEST(AdaptiveDecision, TauOneNeverStopsOnConfidence) {
  AdaptiveRule rule;
  rule.n_min = 2;
  rule.n_max = 5;
  rule.tau = 1.0;
  const auto d = adaptive_decision(same(10, 1.0, 0), rule, Sense::kMinimize);
  EXPECT_EQ(d.stop, StopReason::kBudget);
  EXPECT_EQ(d.samples, 5);
  EXPECT_DOUBLE_EQ(d.confidence, 6.0 / 7.0);
}

TEST(AdaptiveDecision, PatienceStopsWhenTheLastKSamplesBeatNothing) {
  // Real-valued objectives that never repeat: the confidence rule runs to the budget.
  std::vector<Draw> draws;
  for (int i = 0; i < 64; ++i) draws.push_back({true, i == 5 ? 1.0 : 10.0 + i, i});
  AdaptiveRule rule;  // 8, 64, 0.85
  EXPECT_EQ(adaptive_decision(draws, rule, Sense::kMinimize).stop, StopReason::kBudget);
  rule.patience = 12;  // y* is sample 6 (index 5): samples 7..18 beat nothing -> stop at 18
  const auto d = adaptive_decision(draws, rule, Sense::kMinimize);
  EXPECT_EQ(d.stop, StopReason::kPatience);
  EXPECT_EQ(d.samples, 18);
  EXPECT_EQ(d.best, 5);
}

TEST(AdaptiveDecision, PatienceRestartsOnEveryImprovementAndWaitsForNMin) {
  AdaptiveRule rule;
  rule.n_min = 8;
  rule.patience = 3;
  // Improvements at samples 1, 2, 6 (minimise): no stop before n_min = 8; at 9 three samples
  // (7, 8, 9) beat nothing. A tie with y* is no progress.
  const std::vector<Draw> draws = {{true, 9, 0}, {true, 8, 1}, {true, 8, 2}, {true, 8.5, 3}, {true, 9, 4},
                                   {true, 7, 5},  {true, 7, 6}, {true, 7.5, 7}, {true, 8, 8},  {true, 1, 9}};
  const auto d = adaptive_decision(draws, rule, Sense::kMinimize);
  EXPECT_EQ(d.stop, StopReason::kPatience);
  EXPECT_EQ(d.samples, 9);
  EXPECT_EQ(d.best, 5);
  // An improvement at sample 9 restarts the count: with it, no stop before sample 12.
  auto later = draws;
  later[8] = {true, 6, 8};
  later.resize(9);
  later.resize(11, Draw{true, 50, 20});
  EXPECT_EQ(adaptive_decision(later, rule, Sense::kMinimize).stop, StopReason::kNone);
  EXPECT_EQ(to_string(StopReason::kPatience), "patience");
}

TEST(AdaptiveDecision, MalformedRulesAreErrors) {
  AdaptiveRule bad;
  bad.n_max = 4;  // < n_min 8
  EXPECT_THROW(adaptive_decision({}, bad, Sense::kMinimize), Error);
  bad = AdaptiveRule{};
  bad.tau = 0.0;
  EXPECT_THROW(check_rule(bad), Error);
  bad = AdaptiveRule{};
  bad.patience = -1;
  EXPECT_THROW(check_rule(bad), Error);
}

}  // namespace
}  // namespace falcon::scoring
