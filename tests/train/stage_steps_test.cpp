#include "falcon/train/stage_steps.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "falcon/problems/registry.h"
#include "falcon/train/losses.h"
#include "falcon/train/policy_scoring.h"

namespace falcon::train {
namespace {

model::ModelConfig tiny() {
  model::ModelConfig c;
  c.vocab_size = 32;
  c.hidden_size = 32;
  c.intermediate_size = 48;
  c.num_hidden_layers = 2;
  c.num_attention_heads = 4;
  c.num_key_value_heads = 2;
  return c;
}

RolloutSample sample(std::vector<int> tokens, bool feasible, double objective) {
  RolloutSample s;
  s.train_tokens = std::move(tokens);
  s.outcome.feasible = feasible;
  s.outcome.parsed = true;
  s.outcome.objective = objective;
  return s;
}

struct Fixture {
  std::shared_ptr<const problems::Instance> instance = problems::problem_by_name("tsp").generate({5}, 1);
  std::vector<RolloutItem> items;
  std::vector<std::vector<RolloutSample>> groups;
  Fixture() {
    RolloutItem a;
    a.problem = &problems::problem_by_name("tsp");
    a.instance = instance;
    a.prompt = {2, 10, 11};
    RolloutItem b = a;
    b.prompt = {2, 12};
    items = {a, b};
    // Group 0: y* = [5 6 3] (10), losers 12 and 16 (gaps 2 and 6); the infeasible one is ignored.
    groups.push_back({sample({5, 6, 3}, true, 10), sample({6, 5, 3}, true, 12), sample({7, 3}, true, 16),
                      sample({8, 8, 8}, false, 1)});
    // Group 1: every feasible objective equal -> degenerate, skipped.
    groups.push_back({sample({5, 3}, true, 9), sample({6, 3}, true, 9)});
  }
};

TEST(StageSteps, BopoLossIsDefinition36OverTheUsedGroups) {
  torch::manual_seed(1);
  model::CausalLm lm(tiny(), torch::TensorOptions().dtype(torch::kDouble));
  Fixture f;
  StageSpec stage;
  stage.kind = StageKind::kBopo;
  stage.beta = 0.5;
  auto m = bopo_step(lm, f.items, f.groups, stage, /*pad_id=*/0, /*loss_scale=*/1.0);
  EXPECT_EQ(m.groups, 1);
  EXPECT_EQ(m.skipped_groups, 1);
  EXPECT_EQ(m.pairs, 2);

  torch::NoGradGuard no_grad;
  auto scored = score_sequences(lm, {{{2, 10, 11}, {5, 6, 3}}, {{2, 10, 11}, {6, 5, 3}}, {{2, 10, 11}, {7, 3}}}, 0);
  const auto lp = scored.sequence_logp;
  auto log_sigmoid = [](double x) { return -std::log1p(std::exp(-x)); };
  const double s1 = (lp[0] - lp[1]).item<double>(), s2 = (lp[0] - lp[2]).item<double>();
  // w = (2, 6) / 4; (1 / (K' - 1)) sum w log sigma(beta s)
  const double expected = -(0.5 * log_sigmoid(0.5 * s1) + 1.5 * log_sigmoid(0.5 * s2)) / 2.0;
  EXPECT_NEAR(m.loss, expected, 1e-10);
}

TEST(StageSteps, BopoGradientStepWidensTheMarginOfTheBest) {
  torch::manual_seed(2);
  model::CausalLm lm(tiny());
  Fixture f;
  StageSpec stage;
  stage.kind = StageKind::kBopo;
  stage.beta = 1.0;
  auto margin = [&] {
    torch::NoGradGuard no_grad;
    auto lp = score_sequences(lm, {{{2, 10, 11}, {5, 6, 3}}, {{2, 10, 11}, {7, 3}}}, 0).sequence_logp;
    return (lp[0] - lp[1]).item<double>();
  };
  const double before = margin();
  torch::optim::SGD sgd(lm->parameters(), torch::optim::SGDOptions(0.5));
  for (int i = 0; i < 5; ++i) {
    sgd.zero_grad();
    bopo_step(lm, f.items, f.groups, stage, 0, 1.0);
    sgd.step();
  }
  EXPECT_GT(margin(), before + 0.1);
}

TEST(StageSteps, GrpoRaisesTheLikelihoodOfTheRewardedSample) {
  torch::manual_seed(3);
  model::CausalLm lm(tiny());
  Fixture f;
  f.items.resize(1);
  f.groups.resize(1);
  f.items[0].reference_objective = 10.0;
  StageSpec stage;
  stage.kind = StageKind::kGrpo;
  auto logp_best = [&] {
    torch::NoGradGuard no_grad;
    return score_sequences(lm, {{{2, 10, 11}, {5, 6, 3}}}, 0).sequence_logp[0].item<double>();
  };
  const double before = logp_best();
  torch::optim::SGD sgd(lm->parameters(), torch::optim::SGDOptions(0.5));
  for (int i = 0; i < 5; ++i) {
    sgd.zero_grad();
    auto m = grpo_step(lm, f.items, f.groups, stage, 0, 1.0);
    EXPECT_EQ(m.groups, 1);
    sgd.step();
  }
  EXPECT_GT(logp_best(), before);
}

TEST(StageSteps, DpoStartsAtLog2WhenThePolicyIsItsReference) {
  torch::manual_seed(4);
  model::CausalLm lm(tiny());
  lm->add_lora({/*rank=*/2, /*alpha=*/2.0, /*dropout=*/0.0});
  lm->freeze_base();
  Fixture f;
  StageSpec stage;
  stage.kind = StageKind::kDpo;
  stage.beta = 0.1;
  auto m = dpo_step(lm, f.items, f.groups, stage, 0, 1.0);
  EXPECT_EQ(m.groups, 1);  // group 1's two samples are equally good: no preference, skipped
  EXPECT_EQ(m.skipped_groups, 1);
  EXPECT_NEAR(m.loss, std::log(2.0), 1e-6);
}

TEST(StageSteps, SftOverfitsOneSequence) {
  torch::manual_seed(5);
  model::CausalLm lm(tiny());
  torch::optim::AdamW adam(lm->parameters(), torch::optim::AdamWOptions(1e-2));
  const std::vector<Sequence> data = {{{2, 10, 11}, {5, 6, 7, 3}}};
  double first = 0, last = 0;
  for (int i = 0; i < 30; ++i) {
    adam.zero_grad();
    auto m = sft_step(lm, data, 0, 1.0);
    (i == 0 ? first : last) = m.loss;
    adam.step();
  }
  EXPECT_LT(last, 0.1 * first);
}

// Data parallel: a step on each of two slices, each dividing by the counts summed over both
// (as DistributedContext::all_reduce_sum would), gives losses and gradients that add up to the
// step on the whole batch. `step(part, share)` runs part 0 or 1, or the whole batch for -1.
void expect_slices_add_up(model::CausalLm& lm, const std::function<StepMetrics(int, const BatchShare&)>& step) {
  auto grads = [&] {
    std::vector<torch::Tensor> out;
    for (const auto& p : lm->parameters())
      out.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
    return out;
  };
  lm->zero_grad();
  const auto whole = step(-1, BatchShare{});
  const auto whole_grads = grads();
  // First pass: each slice's own counts (they depend on the data, not the weights).
  std::vector<std::vector<double>> counts(2);
  for (int part : {0, 1}) {
    BatchShare record{part, 2, [&counts, part](const std::vector<double>& local) { return counts[part] = local; }};
    lm->zero_grad();
    step(part, record);
  }
  double loss = 0.0;
  std::vector<torch::Tensor> summed;
  for (int part : {0, 1}) {
    BatchShare share{part, 2, [&counts](const std::vector<double>&) {
                       auto total = counts[0];
                       for (std::size_t i = 0; i < total.size(); ++i) total[i] += counts[1][i];
                       return total;
                     }};
    lm->zero_grad();
    loss += step(part, share).loss;
    const auto g = grads();
    if (summed.empty()) summed = g;
    else for (std::size_t i = 0; i < g.size(); ++i) summed[i] += g[i];
  }
  EXPECT_NEAR(loss, whole.loss, 1e-12);
  double diff = 0.0;
  for (std::size_t i = 0; i < summed.size(); ++i) diff = std::max(diff, (summed[i] - whole_grads[i]).abs().max().item<double>());
  EXPECT_LT(diff, 1e-12);
  EXPECT_GT(whole_grads[0].abs().max().item<double>(), 0.0);  // the check compared something
}

TEST(StageSteps, SlicesWithGlobalCountsAddUpToTheWholeBatch) {
  torch::manual_seed(6);
  model::CausalLm lm(tiny(), torch::TensorOptions().dtype(torch::kDouble));
  const std::vector<Sequence> data = {{{2, 10, 11}, {5, 6, 7, 3}}, {{2, 12}, {5, 3}}, {{2, 13, 14, 15}, {7, 6, 5, 4, 3}}};
  auto slice = [](const auto& all, int part) {
    using V = std::decay_t<decltype(all)>;
    if (part < 0) return all;
    return part == 0 ? V(all.begin(), all.begin() + 1) : V(all.begin() + 1, all.end());
  };
  expect_slices_add_up(lm, [&](int part, const BatchShare& share) { return sft_step(lm, slice(data, part), 0, 1.0, share); });

  // Three groups: one used, one degenerate, one used; slices [0] and [1, 2].
  Fixture f;
  RolloutItem c = f.items[0];
  c.prompt = {2, 13};
  f.items.push_back(c);
  f.groups.push_back({sample({5, 3}, true, 9), sample({6, 3}, true, 11), sample({7, 7, 3}, true, 14)});
  for (auto& item : f.items) item.reference_objective = 9.0;
  StageSpec bopo;
  bopo.kind = StageKind::kBopo;
  bopo.sft_weight = 0.5;
  expect_slices_add_up(lm, [&](int part, const BatchShare& share) {
    return bopo_step(lm, slice(f.items, part), slice(f.groups, part), bopo, 0, 1.0, share);
  });
  StageSpec grpo;
  grpo.kind = StageKind::kGrpo;
  expect_slices_add_up(lm, [&](int part, const BatchShare& share) {
    return grpo_step(lm, slice(f.items, part), slice(f.groups, part), grpo, 0, 1.0, share);
  });

  lm->add_lora({/*rank=*/2, /*alpha=*/2.0, /*dropout=*/0.0});
  StageSpec dpo;
  dpo.kind = StageKind::kDpo;
  expect_slices_add_up(lm, [&](int part, const BatchShare& share) {
    return dpo_step(lm, slice(f.items, part), slice(f.groups, part), dpo, 0, 1.0, share);
  });
}

}  // namespace
}  // namespace falcon::train
