#include "falcon/sampling/logit_steps.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace falcon::sampling {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<int> kept(const std::vector<float>& logits) {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(logits.size()); ++i)
    if (logits[i] != -kInf) out.push_back(i);
  return out;
}

TEST(LogitSteps, TemperatureScalesAndKeepsRemovedTokens) {
  std::vector<float> row = {2.0f, -kInf, -1.0f};
  apply_temperature(row.data(), 3, 0.5);
  EXPECT_FLOAT_EQ(row[0], 4.0f);
  EXPECT_EQ(row[1], -kInf);
  EXPECT_FLOAT_EQ(row[2], -2.0f);
}

TEST(LogitSteps, TopKKeepsTheKLargestAndTheirTies) {
  std::vector<float> row = {0.1f, 3.0f, 2.0f, -kInf, 2.0f, 1.0f};
  apply_top_k(row.data(), 6, 2);
  EXPECT_EQ(kept(row), (std::vector<int>{1, 2, 4}));  // 2.0 ties with the 2nd largest
  std::vector<float> all = {1.0f, 2.0f};
  apply_top_k(all.data(), 2, 0);
  EXPECT_EQ(kept(all).size(), 2u);
}

TEST(LogitSteps, TopPKeepsTheSmallestSetReachingP) {
  // probabilities 0.5, 0.25, 0.125, 0.125
  std::vector<float> row = {std::log(4.0f), std::log(2.0f), 0.0f, 0.0f};
  auto a = row;
  apply_top_p(a.data(), 4, 0.5);
  EXPECT_EQ(kept(a), (std::vector<int>{0}));
  auto b = row;
  apply_top_p(b.data(), 4, 0.7);
  EXPECT_EQ(kept(b), (std::vector<int>{0, 1}));
  auto c = row;
  apply_top_p(c.data(), 4, 0.8);
  EXPECT_EQ(kept(c).size(), 3u);
  auto d = row;
  apply_top_p(d.data(), 4, 1e-9);  // always at least the most likely token
  EXPECT_EQ(kept(d), (std::vector<int>{0}));
}

}  // namespace
}  // namespace falcon::sampling
