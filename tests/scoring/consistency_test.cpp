#include "falcon/scoring/consistency.h"

#include <gtest/gtest.h>

#include <cmath>

#include "falcon/core/rng.h"

namespace falcon::scoring {
namespace {

TEST(Consistency, HandComputedValues) {
  EXPECT_FALSE(consistency({}).has_value());
  EXPECT_FALSE(consistency({3}).has_value());  // K < 2: undefined
  EXPECT_DOUBLE_EQ(*consistency({0, 0, 0, 0}), 1.0);
  EXPECT_DOUBLE_EQ(*consistency({0, 1, 2}), 0.0);
  EXPECT_DOUBLE_EQ(*consistency({0, 0, 1}), 2.0 / 6.0);       // pairs (0,1), (1,0) of 6
  EXPECT_DOUBLE_EQ(*consistency({0, 1, 0, 1}), 4.0 / 12.0);
  EXPECT_DOUBLE_EQ(*consistency({5, 5, 5, 9, 2}), 6.0 / 20.0);  // 3*2 of 5*4
}

// Lemma 3.7: E[Cons] = sum_y p(y)^2. p = (0.5, 0.3, 0.2) gives 0.38.
TEST(Consistency, MeanOverManySampleSetsIsTheCollisionProbability) {
  Rng rng = Rng::for_item(7, 0);
  const int sets = 4000, k = 8;
  double sum = 0.0;
  for (int s = 0; s < sets; ++s) {
    std::vector<int> classes;
    for (int i = 0; i < k; ++i) {
      const double u = rng.uniform();
      classes.push_back(u < 0.5 ? 0 : (u < 0.8 ? 1 : 2));
    }
    sum += *consistency(classes);
  }
  const double mean = sum / sets;
  std::printf("mean consistency over %d sets of %d: %.4f (Lemma 3.7: 0.38)\n", sets, k, mean);
  EXPECT_NEAR(mean, 0.38, 0.01);
  EXPECT_NEAR(-std::log(mean), -std::log(0.38), 0.03);  // H_2(p)
}

}  // namespace
}  // namespace falcon::scoring
