#include "falcon/train/bopo.h"

#include <gtest/gtest.h>

#include <cmath>

namespace falcon::train {
namespace {

using problems::Sense;

double log_sigmoid(double x) { return -std::log1p(std::exp(-x)); }
double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

torch::Tensor vec(std::initializer_list<double> v) { return torch::tensor(std::vector<double>(v), torch::kDouble); }

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

TEST(BopoPairs, InfeasibleLosersWeighAsTheWorstFeasibleOne) {
  // Minimise: 10 is y*, feasible gaps 2 and 6 (weights 0.5, 1.5); both infeasible samples weigh 1.5.
  auto pairs = bopo_pairs({{true, 10}, {false, 3}, {true, 12}, {true, 16}, {false, 40}}, Sense::kMinimize, true);
  ASSERT_TRUE(pairs.has_value());
  EXPECT_EQ(pairs->best, 0);
  EXPECT_EQ(pairs->losers, (std::vector<int>{2, 3, 1, 4}));
  const std::vector<double> weights = {0.5, 1.5, 1.5, 1.5};
  for (std::size_t k = 0; k < weights.size(); ++k) {
    EXPECT_NEAR(pairs->weights[k], weights[k], 1e-12) << k;
    EXPECT_NEAR(pairs->coefficients[k], weights[k] / 4.0, 1e-12) << k;  // w / (losers)
  }
  // One feasible sample is enough: its pairs are the infeasible ones, weight 1.
  auto lone = bopo_pairs({{false, 1}, {true, 5}, {false, 2}}, Sense::kMaximize, true);
  ASSERT_TRUE(lone.has_value());
  EXPECT_EQ(lone->best, 1);
  EXPECT_EQ(lone->losers, (std::vector<int>{0, 2}));
  EXPECT_NEAR(lone->weights[0], 1.0, 1e-12);
  EXPECT_NEAR(lone->coefficients[1], 0.5, 1e-12);
  // Feasible ties with y* carry no gap, so only the infeasible sample is a loser.
  auto ties = bopo_pairs({{true, 7}, {true, 7}, {false, 0}}, Sense::kMinimize, true);
  ASSERT_TRUE(ties.has_value());
  EXPECT_EQ(ties->losers, (std::vector<int>{2}));
  // Still nothing without a feasible anchor, or with nobody to lose.
  EXPECT_FALSE(bopo_pairs({{false, 1}, {false, 2}}, Sense::kMinimize, true).has_value());
  EXPECT_FALSE(bopo_pairs({{true, 7}, {true, 7}}, Sense::kMinimize, true).has_value());
  // Without the option the paper's pairs are unchanged: the infeasible samples are left out.
  auto paper = bopo_pairs({{true, 10}, {false, 3}, {true, 12}, {true, 16}, {false, 40}}, Sense::kMinimize);
  ASSERT_TRUE(paper.has_value());
  EXPECT_EQ(paper->losers, (std::vector<int>{2, 3}));
}

TEST(BopoLoss, MatchesHandComputedValueAndGradient) {
  auto winner = vec({-1.0, -2.0}).requires_grad_(true);
  auto loser = vec({-3.0, -2.5}).requires_grad_(true);
  auto coeff = vec({0.25, 0.75});
  const double beta = 0.1;
  auto loss = bopo_loss(winner, loser, coeff, beta);
  EXPECT_NEAR(loss.item<double>(), -(0.25 * log_sigmoid(0.2) + 0.75 * log_sigmoid(0.05)), 1e-12);
  loss.backward();
  // d/dw [-c log sigma(beta (w - l))] = -c beta sigma(-beta (w - l))
  EXPECT_NEAR(winner.grad()[0].item<double>(), -0.25 * beta * sigmoid(-0.2), 1e-12);
  EXPECT_NEAR(loser.grad()[1].item<double>(), 0.75 * beta * sigmoid(-0.05), 1e-12);

  // With a reference: margins shift by the reference's own margins.
  auto ref_w = vec({-1.5, -2.0}), ref_l = vec({-2.5, -3.0});
  auto anchored = bopo_loss(winner.detach(), loser.detach(), coeff, beta, ref_w, ref_l);
  EXPECT_NEAR(anchored.item<double>(), -(0.25 * log_sigmoid(0.1 * (2.0 - 1.0)) + 0.75 * log_sigmoid(0.1 * (0.5 - 1.0))),
              1e-12);
}

}  // namespace
}  // namespace falcon::train
