#include "falcon/train/preferences.h"

#include <gtest/gtest.h>

#include <cmath>

namespace falcon::train {
namespace {

using problems::Sense;

TEST(BopoPairs, BestAnchoredPairsWithObjectiveGapWeights) {
  // Minimise: 10 is y*, the infeasible 8 is ignored, gaps 2 and 6, mean 4.
  const std::vector<ScoredSample> group = {{true, 10}, {true, 12}, {true, 16}, {false, 8}};
  auto pairs = bopo_pairs(group, Sense::kMinimize);
  ASSERT_TRUE(pairs.has_value());
  EXPECT_EQ(pairs->best, 0);
  EXPECT_EQ(pairs->losers, (std::vector<int>{1, 2}));
  EXPECT_NEAR(pairs->weights[0], 0.5, 1e-12);
  EXPECT_NEAR(pairs->weights[1], 1.5, 1e-12);
  EXPECT_NEAR(pairs->coefficients[0], 0.25, 1e-12);  // w / (K' - 1)
  EXPECT_NEAR(pairs->coefficients[1], 0.75, 1e-12);

  // Maximise: 5 is y*; gaps 2, 1.
  auto max_pairs = bopo_pairs({{true, 3}, {true, 5}, {true, 4}}, Sense::kMaximize);
  ASSERT_TRUE(max_pairs.has_value());
  EXPECT_EQ(max_pairs->best, 1);
  EXPECT_NEAR(max_pairs->weights[0], 4.0 / 3.0, 1e-12);
  EXPECT_NEAR(max_pairs->weights[1], 2.0 / 3.0, 1e-12);

  // A tie with y* counts as a pair with weight 0 (it is a loser of gap 0).
  auto tie = bopo_pairs({{true, 10}, {true, 10}, {true, 14}}, Sense::kMinimize);
  ASSERT_TRUE(tie.has_value());
  EXPECT_EQ(tie->best, 0);
  EXPECT_NEAR(tie->weights[0], 0.0, 1e-12);
  EXPECT_NEAR(tie->weights[1], 2.0, 1e-12);
}

TEST(BopoPairs, DegenerateGroupsAreSkipped) {
  EXPECT_FALSE(bopo_pairs({{false, 1}, {false, 2}}, Sense::kMinimize).has_value());
  EXPECT_FALSE(bopo_pairs({{true, 1}, {false, 2}}, Sense::kMinimize).has_value());
  EXPECT_FALSE(bopo_pairs({{true, 7}, {true, 7}, {true, 7}}, Sense::kMinimize).has_value());
  EXPECT_FALSE(bopo_pairs({}, Sense::kMinimize).has_value());
}

TEST(Rewards, GroupAdvantagesAndRewards) {
  auto a = group_advantages({1.0, 2.0, 3.0});
  EXPECT_NEAR(a[0], -1.0 / std::sqrt(2.0 / 3.0), 1e-5);
  EXPECT_NEAR(a[1], 0.0, 1e-12);
  auto flat = group_advantages({4.0, 4.0});
  EXPECT_EQ(flat[0], 0.0);

  EXPECT_NEAR(gap_reward({true, 110}, 100, Sense::kMinimize), -0.1, 1e-12);
  EXPECT_NEAR(gap_reward({true, 90}, 100, Sense::kMaximize), -0.1, 1e-12);
  EXPECT_EQ(gap_reward({false, 0}, 100, Sense::kMinimize), -1.0);

  EXPECT_EQ(foarl_reward(false, {false, 0}, 0, 100, Sense::kMinimize), 0.0);
  EXPECT_NEAR(foarl_reward(true, {false, 0}, 3, 100, Sense::kMinimize), 0.25, 1e-12);
  EXPECT_NEAR(foarl_reward(true, {true, 125}, 0, 100, Sense::kMinimize), 1.0 + 1.0 / 1.25, 1e-12);
  EXPECT_NEAR(foarl_reward(true, {true, 95}, 0, 100, Sense::kMinimize), 2.0, 1e-12);  // better than reference
}

}  // namespace
}  // namespace falcon::train
