#include "falcon/scoring/sample_outcome.h"

#include <gtest/gtest.h>

#include "falcon/problems/registry.h"

namespace falcon::scoring {
namespace {

TEST(SampleOutcome, StrictFeasibleTextNeedsNoRepair) {
  const auto& tsp = problems::problem_by_name("tsp");
  auto instance = tsp.generate({/*n=*/5}, 1);
  problems::Solution tour{{{0, 1, 2, 3, 4}}};
  const auto text = tsp.format(*instance, tour);
  auto out = score_sample(tsp, *instance, text, /*repair=*/true);
  EXPECT_TRUE(out.parsed_strict);
  EXPECT_TRUE(out.feasible_raw);
  EXPECT_TRUE(out.feasible);
  EXPECT_FALSE(out.repaired);
  EXPECT_FALSE(out.before_repair.has_value());
  EXPECT_DOUBLE_EQ(out.objective, tsp.objective(*instance, tour));
}

TEST(SampleOutcome, InfeasibleTextIsRepairedOnlyWhenAsked) {
  const auto& tsp = problems::problem_by_name("tsp");
  auto instance = tsp.generate({/*n=*/5}, 1);
  const std::string text = "Route: [0, 1, 1, 3], Objective: 1.00";  // duplicate, missing 2 and 4
  auto raw = score_sample(tsp, *instance, text, /*repair=*/false);
  EXPECT_TRUE(raw.parsed_strict);
  EXPECT_FALSE(raw.feasible_raw);
  EXPECT_FALSE(raw.feasible);
  EXPECT_GT(raw.violation, 0.0);
  auto fixed = score_sample(tsp, *instance, text, /*repair=*/true);
  EXPECT_TRUE(fixed.feasible);
  EXPECT_TRUE(fixed.repaired);
  EXPECT_EQ(fixed.before_repair, problems::Solution::flat({0, 1, 1, 3}));  // what the picture marks against
  EXPECT_FALSE(raw.before_repair.has_value());
  EXPECT_TRUE(tsp.feasible(*instance, fixed.solution));
  EXPECT_LE(fixed.repair_distance, tsp.locality_constant() * fixed.violation + 1e-9);
  EXPECT_TRUE(better(tsp, fixed, raw));
}

TEST(SampleOutcome, GarbageSurvivesAndIsRepairedToAFeasibleSolution) {
  for (const auto& name : problems::problem_names()) {
    const auto& problem = problems::problem_by_name(name);
    auto instance = problem.generate({/*n=*/8}, 3);
    for (std::string_view text : {std::string_view(""), std::string_view("\xff\x00[[[", 5),
                                  std::string_view("Route: [0, 1"), std::string_view("Objective: -")}) {
      auto out = score_sample(problem, *instance, text, /*repair=*/true);
      EXPECT_FALSE(out.feasible_raw) << name;
      EXPECT_TRUE(out.feasible) << name;
      EXPECT_TRUE(problem.feasible(*instance, out.solution)) << name;
      auto raw = score_sample(problem, *instance, text, /*repair=*/false);
      EXPECT_FALSE(raw.feasible) << name;
    }
  }
}

}  // namespace
}  // namespace falcon::scoring
