#include "falcon/model/weight_average.h"

#include <gtest/gtest.h>

#include "tests/error_of.h"

namespace falcon::model {
namespace {

std::string error_of(const std::vector<WeightSource>& sources) {
  return test_support::error_of([&] { average_weights(sources); });
}

TEST(AverageWeights, IsTheElementWiseMeanInTheFirstSourcesDtypes) {
  const std::vector<WeightSource> sources = {
      {"a", {{"w", torch::tensor({1.0f, 2.0f})}, {"b", torch::tensor({1.0}, torch::kBFloat16)}}},
      {"b", {{"w", torch::tensor({3.0f, 6.0f})}, {"b", torch::tensor({2.0}, torch::kBFloat16)}}},
      {"c", {{"w", torch::tensor({5.0f, 1.0f})}, {"b", torch::tensor({4.0}, torch::kBFloat16)}}},
  };
  const auto mean = average_weights(sources);
  ASSERT_EQ(mean.size(), 2u);
  EXPECT_TRUE(torch::allclose(mean.at("w"), torch::tensor({3.0f, 3.0f})));
  EXPECT_EQ(mean.at("b").scalar_type(), torch::kBFloat16);
  EXPECT_NEAR(mean.at("b").item<float>(), 7.0f / 3.0f, 0.02f);
  // The inputs are left as they were.
  EXPECT_TRUE(torch::equal(sources[0].weights.at("w"), torch::tensor({1.0f, 2.0f})));
}

TEST(AverageWeights, ManyBf16TensorsSumWithoutRoundingEachStep) {
  // A bf16 running sum of 300 x 1.01 rounds at every step past 256 (where bf16's spacing is 2)
  // and ends far from 302; the mean must stay near 1.01.
  std::vector<WeightSource> sources;
  for (int i = 0; i < 300; ++i)
    sources.push_back({"s" + std::to_string(i), {{"w", torch::full({4}, 1.01, torch::kBFloat16)}}});
  EXPECT_NEAR(average_weights(sources).at("w")[0].item<float>(), 1.01f, 0.01f);
}

TEST(AverageWeights, ADifferentModelIsNamedWithTheTensor) {
  const WeightSource a{"runs/a/step_1", {{"w", torch::zeros({2, 3})}}};
  EXPECT_NE(error_of({a, {"runs/b/step_1", {{"w", torch::zeros({3, 2})}}}}).find("runs/b/step_1: tensor 'w' is [3, 2] but [2, 3] in runs/a/step_1"),
            std::string::npos);
  EXPECT_NE(error_of({a, {"runs/c", {{"v", torch::zeros({2, 3})}}}}).find("runs/c: has no tensor 'w'"), std::string::npos);
  EXPECT_NE(error_of({a, {"runs/d", {{"w", torch::zeros({2, 3})}, {"extra", torch::zeros({1})}}}})
                .find("runs/d: has a tensor 'extra' that runs/a/step_1 lacks"),
            std::string::npos);
  EXPECT_NE(error_of({}).find("no checkpoints"), std::string::npos);
}

}  // namespace
}  // namespace falcon::model
