#include "falcon/train/dpo.h"
#include "falcon/train/grpo.h"
#include "falcon/train/logprobs.h"
#include "falcon/train/sft.h"

#include <gtest/gtest.h>

#include <cmath>

namespace falcon::train {
namespace {

double log_sigmoid(double x) { return -std::log1p(std::exp(-x)); }

torch::Tensor vec(std::initializer_list<double> v) { return torch::tensor(std::vector<double>(v), torch::kDouble); }

TEST(Losses, TokenAndSequenceLogprobs) {
  // One sequence, two positions, vocabulary 3.
  auto logits = torch::tensor({{{0.0, 1.0, 2.0}, {1.0, 1.0, 1.0}}}, torch::kDouble);  // (1, 2, 3)
  auto targets = torch::tensor({{2L, 0L}});                                         // (1, 2)
  auto lp = token_logprobs(logits, targets);
  const double z = std::log(1 + std::exp(1.0) + std::exp(2.0));
  EXPECT_NEAR(lp[0][0].item<double>(), 2.0 - z, 1e-6);
  EXPECT_NEAR(lp[0][1].item<double>(), -std::log(3.0), 1e-6);
  auto mask = torch::tensor({{0.0, 1.0}});
  EXPECT_NEAR(sequence_logprobs(lp, mask)[0].item<double>(), -std::log(3.0), 1e-6);
  auto both = torch::ones({1, 2});
  EXPECT_NEAR(sequence_logprobs(lp, both, /*normalise=*/true)[0].item<double>(), (2.0 - z - std::log(3.0)) / 2, 1e-6);
  EXPECT_NEAR(sft_loss(lp, both).item<double>(), -(2.0 - z - std::log(3.0)) / 2, 1e-6);
}

// A batch split in two: each part divided by the global count, the parts add up to the whole.
TEST(Losses, GlobalCountsMakeThePartsOfABatchAddUpToItsMean) {
  auto lp = torch::tensor({{-1.0, -2.0, -0.5}, {-0.3, -0.7, -9.0}, {-4.0, -1.5, -2.5}}, torch::kDouble);  // (3, 3)
  auto mask = torch::tensor({{1.0, 1.0, 0.0}, {1.0, 1.0, 1.0}, {0.0, 1.0, 1.0}}, torch::kDouble);         // 7 tokens
  auto a = torch::indexing::Slice(0, 1), b = torch::indexing::Slice(1, 3);
  EXPECT_NEAR((sft_loss(lp.index({a}), mask.index({a}), 7.0) + sft_loss(lp.index({b}), mask.index({b}), 7.0)).item<double>(),
              sft_loss(lp, mask).item<double>(), 1e-12);
  EXPECT_NEAR(sft_loss(lp, mask).item<double>(), (3.0 + 10.0 + 4.0) / 7.0, 1e-12);
  auto adv = vec({1.0, -0.5, 2.0});
  auto ref = lp - 0.25;
  EXPECT_NEAR((grpo_loss(lp.index({a}), mask.index({a}), adv.index({a}), ref.index({a}), 0.1, 3.0) +
               grpo_loss(lp.index({b}), mask.index({b}), adv.index({b}), ref.index({b}), 0.1, 3.0)).item<double>(),
              grpo_loss(lp, mask, adv, ref, 0.1).item<double>(), 1e-12);
  auto w = vec({-1.0, -2.0, -0.1}), l = vec({-3.0, -2.5, -0.2}), rw = vec({-1.5, -2.0, 0.0}), rl = vec({-2.5, -3.0, 0.0});
  auto pa = torch::indexing::Slice(0, 2), pb = torch::indexing::Slice(2, 3);
  EXPECT_NEAR((dpo_loss(w.index({pa}), l.index({pa}), rw.index({pa}), rl.index({pa}), 0.5, 3.0) +
               dpo_loss(w.index({pb}), l.index({pb}), rw.index({pb}), rl.index({pb}), 0.5, 3.0)).item<double>(),
              dpo_loss(w, l, rw, rl, 0.5).item<double>(), 1e-12);
}

TEST(Losses, DpoMatchesHandComputedValue) {
  auto loss = dpo_loss(vec({-1.0}), vec({-2.0}), vec({-1.2}), vec({-1.9}), 0.5);
  EXPECT_NEAR(loss.item<double>(), -log_sigmoid(0.5 * ((-1.0 + 1.2) - (-2.0 + 1.9))), 1e-12);
}

TEST(Losses, GrpoIsAdvantageWeightedPolicyGradient) {
  auto lp = torch::tensor({{-1.0, -2.0, -0.5}, {-0.3, -0.7, -9.0}}, torch::kDouble).requires_grad_(true);  // (2, 3)
  auto mask = torch::tensor({{1.0, 1.0, 1.0}, {1.0, 1.0, 0.0}}, torch::kDouble);
  auto adv = vec({1.0, -1.0});
  auto loss = grpo_loss(lp, mask, adv);
  EXPECT_NEAR(loss.item<double>(), 0.0, 1e-12);  // -mean(A) with ratio 1
  loss.backward();
  // d loss / d lp[i][t] = -A_i / (|o_i| * B)
  EXPECT_NEAR(lp.grad()[0][0].item<double>(), -1.0 / 3 / 2, 1e-12);
  EXPECT_NEAR(lp.grad()[1][1].item<double>(), 1.0 / 2 / 2, 1e-12);
  EXPECT_EQ(lp.grad()[1][2].item<double>(), 0.0);

  // k3 KL: zero when the policy equals the reference, positive otherwise.
  auto same = grpo_loss(lp.detach(), mask, vec({0.0, 0.0}), lp.detach(), 0.1);
  EXPECT_NEAR(same.item<double>(), 0.0, 1e-12);
  auto ref = lp.detach() - 0.5;
  auto kl = grpo_loss(lp.detach(), mask, vec({0.0, 0.0}), ref, 0.1);
  EXPECT_NEAR(kl.item<double>(), 0.1 * (std::exp(-0.5) + 0.5 - 1.0), 1e-12);
}

// Dr. GRPO's constant: a token of the 3-token failure gets the same blame as one of the 1-token
// failure, where the token mean gives it a third.
TEST(Losses, GrpoWithALengthScaleWeighsEveryTokenTheSame) {
  auto lp = torch::tensor({{-1.0, -2.0, -0.5}, {-0.3, 0.0, 0.0}}, torch::kDouble).requires_grad_(true);  // (2, 3)
  auto mask = torch::tensor({{1.0, 1.0, 1.0}, {1.0, 0.0, 0.0}}, torch::kDouble);
  auto adv = vec({-1.0, -1.0});
  grpo_loss(lp, mask, adv, {}, 0.0, 0.0, /*length_scale=*/10.0).backward();
  // d loss / d lp[i][t] = -A_i / (length_scale * B)
  EXPECT_NEAR(lp.grad()[0][2].item<double>(), 1.0 / 10 / 2, 1e-12);
  EXPECT_NEAR(lp.grad()[1][0].item<double>(), 1.0 / 10 / 2, 1e-12);
  EXPECT_EQ(lp.grad()[1][1].item<double>(), 0.0);

  auto mean_lp = lp.detach().clone().requires_grad_(true);
  grpo_loss(mean_lp, mask, adv).backward();
  EXPECT_NEAR(mean_lp.grad()[0][2].item<double>(), 1.0 / 3 / 2, 1e-12);
  EXPECT_NEAR(mean_lp.grad()[1][0].item<double>(), 1.0 / 1 / 2, 1e-12);
}

}  // namespace
}  // namespace falcon::train
