#include "falcon/train/grpo.h"

#include <gtest/gtest.h>

#include <cmath>

namespace falcon::train {
namespace {

using problems::Sense;

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
