#include "falcon/problems/tsp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "falcon/core/error.h"
#include "tests/problems/repair_properties.h"

namespace falcon::problems::tsp {
namespace {

std::shared_ptr<TspInstance> square() {
  // Unit square corners: optimal tour length 4.
  auto inst = std::make_shared<TspInstance>();
  inst->geometry = RoutingGeometry::euclidean({{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  inst->name = "square";
  return inst;
}

TEST(Tsp, GeneratorIsDeterministicAndInUnitSquare) {
  GenerateOptions opt;
  opt.n = 30;
  const auto a = generate(opt, 7), b = generate(opt, 7), c = generate(opt, 8);
  ASSERT_EQ(a->size(), 30);
  for (int i = 0; i < 30; ++i) {
    EXPECT_EQ(a->geometry.coords[i].x, b->geometry.coords[i].x);
    EXPECT_GE(a->geometry.coords[i].x, 0.0);
    EXPECT_LT(a->geometry.coords[i].y, 1.0);
  }
  EXPECT_NE(a->geometry.coords[0].x, c->geometry.coords[0].x);
  opt.distribution = "gm";
  EXPECT_EQ(generate(opt, 1)->size(), 30);
}

TEST(Tsp, GeneratorRejectsUnknownKeysAndDistributions) {
  GenerateOptions opt;
  opt.params["capacty"] = "3";
  EXPECT_THROW(generate(opt, 1), Error);
  GenerateOptions bad;
  bad.distribution = "zipf";
  EXPECT_THROW(generate(bad, 1), Error);
}

TEST(Tsp, ObjectiveFeasibilityAndText) {
  const auto inst = square();
  const Solution good = Solution::flat({0, 1, 2, 3});
  EXPECT_DOUBLE_EQ(problem().objective(*inst, good), 4.0);
  EXPECT_TRUE(problem().feasible(*inst, good));
  EXPECT_EQ(problem().format(*inst, good), "Route: [0, 1, 2, 3], Objective: 4.00");
  EXPECT_FALSE(problem().feasible(*inst, Solution::flat({0, 1, 2})));
  EXPECT_FALSE(problem().feasible(*inst, Solution::flat({0, 1, 2, 2})));
  EXPECT_FALSE(problem().feasible(*inst, Solution::flat({0, 1, 2, 4})));
  EXPECT_EQ(problem().violation(*inst, Solution::flat({0, 0, 7})), 1 + 1 + 3);
}

TEST(Tsp, RepairInsertsMissingNodeAtCheapestPosition) {
  const auto inst = square();
  // 3 is missing: cheapest place is between 2 and 0 (closing edge), giving length 4.
  const Solution r = problem().repair(*inst, Solution::flat({0, 1, 2, 1, 9}));
  EXPECT_EQ(r.items(), (std::vector<int>{0, 1, 2, 3}));
}

TEST(Tsp, PromptUsesIntegerCoordinates) {
  const auto inst = square();
  inst->geometry.coords = {{0.1234, 0.9}, {0.5, 0.0}, {0.999, 0.999}, {0, 0.5}};
  EXPECT_EQ(prompt(*inst), "TSP n=4: 0:(123,900) 1:(500,0) 2:(999,999) 3:(0,500)");
}

TEST(Tsp, RepairPropertiesOnTenThousandAdversarialInputs) {
  Rng rng(2024);
  int feasible_inputs = 0, cases = 0;
  for (int k = 0; k < 20; ++k) {
    GenerateOptions opt;
    opt.n = rng.uniform_int(3, 60);
    opt.distribution = k % 2 ? "gm" : "uniform";
    const auto inst = generate(opt, 100 + k);
    const auto stats = testing::check_repair_properties(problem(), *inst, 500, rng, [&](Rng& r) {
      return testing::adversarial_solution(r, inst->size(), /*nested=*/false, 0);
    });
    feasible_inputs += stats.feasible_inputs;
    cases += stats.cases;
    if (HasFailure()) return;
  }
  EXPECT_EQ(cases, 10000);
  EXPECT_GT(feasible_inputs, 500);  // property (2) was exercised, not only (1) and (3)
}

}  // namespace
}  // namespace falcon::problems::tsp
