#include "falcon/train/train_step.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "falcon/problems/registry.h"
#include "falcon/train/algorithms.h"
#include "falcon/train/logprobs.h"
#include "falcon/train/sft.h"
#include "falcon/train/policy_scoring.h"

namespace falcon::train {
namespace {

using recipe::BopoKeys;
using recipe::DpoKeys;
using recipe::stage_defaults;
using recipe::StageKind;
using recipe::StageSpec;

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

policy::RolloutSample sample(std::vector<int> tokens, bool feasible, double objective) {
  policy::RolloutSample s;
  s.train_tokens = std::move(tokens);
  s.outcome.feasible = feasible;
  s.outcome.parsed = true;
  s.outcome.objective = objective;
  return s;
}

struct Fixture {
  std::shared_ptr<const problems::Instance> instance = problems::problem_by_name("tsp").generate({5}, 1);
  std::vector<policy::RolloutItem> items;
  std::vector<std::vector<policy::RolloutSample>> groups;
  Fixture() {
    policy::RolloutItem a;
    a.problem = &problems::problem_by_name("tsp");
    a.instance = instance;
    a.prompt = {2, 10, 11};
    policy::RolloutItem b = a;
    b.prompt = {2, 12};
    items = {a, b};
    // Group 0: y* = [5 6 3] (10), losers 12 and 16 (gaps 2 and 6); the infeasible one is ignored.
    groups.push_back({sample({5, 6, 3}, true, 10), sample({6, 5, 3}, true, 12), sample({7, 3}, true, 16),
                      sample({8, 8, 8}, false, 1)});
    // Group 1: every feasible objective equal -> degenerate, skipped.
    groups.push_back({sample({5, 3}, true, 9), sample({6, 3}, true, 9)});
  }
};

TEST(TrainStep, ScoresAndGradientsEqualTheFullProjection) {
  // score_sequences projects only the trained positions; the reference projects every position.
  torch::manual_seed(3);
  model::CausalLm lm(tiny(), torch::TensorOptions().dtype(torch::kDouble));
  std::vector<Sequence> seqs = {{{2, 10, 11, 12}, {5, 6, 7, 3}}, {{2, 10}, {6, 5, 3}}, {{2, 10, 11}, {7, 3}}};
  seqs[0].decoder_written = {false, true, true, false};  // a note the decoder writes: no target
  auto scored = score_sequences(lm, seqs, 0);
  auto loss = sft_loss(scored.token_logp, scored.mask);
  loss.backward();
  std::vector<torch::Tensor> grads;
  for (auto& p : lm->parameters()) grads.push_back(p.grad().clone()), p.mutable_grad().zero_();

  auto batch = collate(seqs, 0, torch::kCPU);
  auto full = token_logprobs(lm->project(lm->hidden_states(batch.input_ids)), batch.targets);  // (S, T)
  auto reference = sft_loss(full, batch.loss_mask);
  reference.backward();
  EXPECT_NEAR(loss.item<double>(), reference.item<double>(), 1e-12);
  auto lp = sequence_logprobs(full, batch.loss_mask);  // (S,)
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(scored.sequence_logp[i].item<double>(), lp[i].item<double>(), 1e-12);
  std::size_t k = 0;
  for (auto& p : lm->parameters()) EXPECT_TRUE(torch::allclose(grads[k++], p.grad(), 1e-10, 1e-12));
}

TEST(TrainStep, BopoLossIsDefinition36OverTheUsedGroups) {
  torch::manual_seed(1);
  model::CausalLm lm(tiny(), torch::TensorOptions().dtype(torch::kDouble));
  Fixture f;
  StageSpec stage = stage_defaults(StageKind::kBopo);
  stage.keys_of<BopoKeys>().beta = 0.5;
  auto m = train_step(lm, {prepare_sampled(f.items, f.groups, stage)}, stage, /*pad_id=*/0);
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

TEST(TrainStep, BopoWithInfeasibleLosersPairsTheInvalidSamplesToo) {
  torch::manual_seed(1);
  model::CausalLm lm(tiny(), torch::TensorOptions().dtype(torch::kDouble));
  Fixture f;
  // Group 1 becomes one feasible sample and one infeasible: a group only with the option.
  f.groups[1] = {sample({5, 3}, true, 9), sample({6, 6, 3}, false, 0), sample({}, false, 0)};
  StageSpec stage = stage_defaults(StageKind::kBopo);
  stage.keys_of<BopoKeys>().beta = 0.5;
  stage.keys_of<BopoKeys>().infeasible_losers = true;
  auto m = train_step(lm, {prepare_sampled(f.items, f.groups, stage)}, stage, /*pad_id=*/0);
  EXPECT_EQ(m.groups, 2);
  EXPECT_EQ(m.skipped_groups, 0);
  EXPECT_EQ(m.pairs, 4);  // group 0: two feasible losers and the infeasible one; group 1: one (no tokens, no pair)
  StageSpec paper = stage;  // the paper's pairs: group 1 has one feasible sample, so it is skipped
  paper.keys_of<BopoKeys>().infeasible_losers = false;
  auto p = train_step(lm, {prepare_sampled(f.items, f.groups, paper)}, paper, 0);
  EXPECT_EQ(p.groups, 1);
  EXPECT_EQ(p.pairs, 2);

  torch::NoGradGuard no_grad;
  const std::vector<Sequence> seqs = {{{2, 10, 11}, {5, 6, 3}}, {{2, 10, 11}, {6, 5, 3}}, {{2, 10, 11}, {7, 3}},
                                      {{2, 10, 11}, {8, 8, 8}}, {{2, 12}, {5, 3}}, {{2, 12}, {6, 6, 3}}};
  const auto lp = score_sequences(lm, seqs, 0).sequence_logp;
  auto term = [&](int w, int l) { return -std::log1p(std::exp(-0.5 * (lp[w] - lp[l]).item<double>())); };
  // Group 0: w = (0.5, 1.5) and the infeasible one 1.5, over 3 losers; group 1: w = 1; mean over 2 groups.
  const double group0 = -(0.5 * term(0, 1) + 1.5 * term(0, 2) + 1.5 * term(0, 3)) / 3.0;
  const double group1 = -term(4, 5);
  EXPECT_NEAR(m.loss, (group0 + group1) / 2.0, 1e-10);
}

// A model of several problems takes each problem's own value of the option (stages[i].problems).
TEST(TrainStep, BopoTakesTheInfeasibleLosersOptionOfTheItemsProblem) {
  Fixture f;  // every item a TSP instance
  f.groups[1] = {sample({5, 3}, true, 9), sample({6, 6, 3}, false, 0), sample({}, false, 0)};
  StageSpec stage = stage_defaults(StageKind::kBopo);
  stage.keys_of<BopoKeys>().infeasible_losers_by_problem = {{"tsp", true}};
  const auto own = prepare_sampled(f.items, f.groups, stage).metrics;
  EXPECT_EQ(own.groups, 2);  // group 1 is one only with the option
  EXPECT_EQ(own.pairs, 4);
  stage.keys_of<BopoKeys>().infeasible_losers_by_problem = {{"cvrp", true}};  // another problem's option leaves TSP the stage's
  const auto others = prepare_sampled(f.items, f.groups, stage).metrics;
  EXPECT_EQ(others.groups, 1);
  EXPECT_EQ(others.skipped_groups, 1);
  stage.keys_of<BopoKeys>().infeasible_losers = true;
  stage.keys_of<BopoKeys>().infeasible_losers_by_problem = {{"tsp", false}};  // and the problem's own false overrides the stage's true
  EXPECT_EQ(prepare_sampled(f.items, f.groups, stage).metrics.groups, 1);
}

TEST(TrainStep, BopoGradientStepWidensTheMarginOfTheBest) {
  torch::manual_seed(2);
  model::CausalLm lm(tiny());
  Fixture f;
  StageSpec stage = stage_defaults(StageKind::kBopo);
  stage.keys_of<BopoKeys>().beta = 1.0;
  auto margin = [&] {
    torch::NoGradGuard no_grad;
    auto lp = score_sequences(lm, {{{2, 10, 11}, {5, 6, 3}}, {{2, 10, 11}, {7, 3}}}, 0).sequence_logp;
    return (lp[0] - lp[1]).item<double>();
  };
  const double before = margin();
  torch::optim::SGD sgd(lm->parameters(), torch::optim::SGDOptions(0.5));
  for (int i = 0; i < 5; ++i) {
    sgd.zero_grad();
    train_step(lm, {prepare_sampled(f.items, f.groups, stage)}, stage, 0);
    sgd.step();
  }
  EXPECT_GT(margin(), before + 0.1);
}

TEST(TrainStep, GrpoRaisesTheLikelihoodOfTheRewardedSample) {
  torch::manual_seed(3);
  model::CausalLm lm(tiny());
  Fixture f;
  f.items.resize(1);
  f.groups.resize(1);
  f.items[0].reference_objective = 10.0;
  StageSpec stage = stage_defaults(StageKind::kGrpo);
  auto logp_best = [&] {
    torch::NoGradGuard no_grad;
    return score_sequences(lm, {{{2, 10, 11}, {5, 6, 3}}}, 0).sequence_logp[0].item<double>();
  };
  const double before = logp_best();
  torch::optim::SGD sgd(lm->parameters(), torch::optim::SGDOptions(0.5));
  for (int i = 0; i < 5; ++i) {
    sgd.zero_grad();
    auto m = train_step(lm, {prepare_sampled(f.items, f.groups, stage)}, stage, 0);
    EXPECT_EQ(m.groups, 1);
    sgd.step();
  }
  EXPECT_GT(logp_best(), before);
}

TEST(TrainStep, DpoStartsAtLog2WhenThePolicyIsItsReference) {
  torch::manual_seed(4);
  model::CausalLm lm(tiny());
  lm->add_lora({/*rank=*/2, /*alpha=*/2.0, /*dropout=*/0.0});
  lm->freeze_base();
  Fixture f;
  StageSpec stage = stage_defaults(StageKind::kDpo);
  stage.keys_of<DpoKeys>().beta = 0.1;
  auto m = train_step(lm, {prepare_sampled(f.items, f.groups, stage)}, stage, 0);
  EXPECT_EQ(m.groups, 1);  // group 1's two samples are equally good: no preference, skipped
  EXPECT_EQ(m.skipped_groups, 1);
  EXPECT_NEAR(m.loss, std::log(2.0), 1e-6);
}

TEST(TrainStep, SftOverfitsOneSequence) {
  torch::manual_seed(5);
  model::CausalLm lm(tiny());
  torch::optim::AdamW adam(lm->parameters(), torch::optim::AdamWOptions(1e-2));
  const std::vector<Sequence> data = {{{2, 10, 11}, {5, 6, 7, 3}}};
  double first = 0, last = 0;
  for (int i = 0; i < 30; ++i) {
    adam.zero_grad();
    auto m = train_step(lm, {prepare_sft(data)}, StageSpec{}, 0);
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

TEST(TrainStep, SlicesWithGlobalCountsAddUpToTheWholeBatch) {
  torch::manual_seed(6);
  model::CausalLm lm(tiny(), torch::TensorOptions().dtype(torch::kDouble));
  const std::vector<Sequence> data = {{{2, 10, 11}, {5, 6, 7, 3}}, {{2, 12}, {5, 3}}, {{2, 13, 14, 15}, {7, 6, 5, 4, 3}}};
  auto slice = [](const auto& all, int part) {
    using V = std::decay_t<decltype(all)>;
    if (part < 0) return all;
    return part == 0 ? V(all.begin(), all.begin() + 1) : V(all.begin() + 1, all.end());
  };
  expect_slices_add_up(lm, [&](int part, const BatchShare& share) {
    return train_step(lm, {prepare_sft(slice(data, part))}, StageSpec{}, 0, share);
  });

  // Three groups: one used, one degenerate, one used; slices [0] and [1, 2].
  Fixture f;
  policy::RolloutItem c = f.items[0];
  c.prompt = {2, 13};
  f.items.push_back(c);
  f.groups.push_back({sample({5, 3}, true, 9), sample({6, 3}, true, 11), sample({7, 7, 3}, true, 14)});
  for (auto& item : f.items) item.reference_objective = 9.0;
  StageSpec bopo = stage_defaults(StageKind::kBopo);
  bopo.keys_of<BopoKeys>().sft_weight = 0.5;
  expect_slices_add_up(lm, [&](int part, const BatchShare& share) {
    return train_step(lm, {prepare_sampled(slice(f.items, part), slice(f.groups, part), bopo)}, bopo, 0, share);
  });
  StageSpec grpo = stage_defaults(StageKind::kGrpo);
  expect_slices_add_up(lm, [&](int part, const BatchShare& share) {
    return train_step(lm, {prepare_sampled(slice(f.items, part), slice(f.groups, part), grpo)}, grpo, 0, share);
  });

  lm->add_lora({/*rank=*/2, /*alpha=*/2.0, /*dropout=*/0.0});
  StageSpec dpo = stage_defaults(StageKind::kDpo);
  expect_slices_add_up(lm, [&](int part, const BatchShare& share) {
    return train_step(lm, {prepare_sampled(slice(f.items, part), slice(f.groups, part), dpo)}, dpo, 0, share);
  });
}

// grad_accum: the micro-batches of one optimizer step, each divided by the count summed over all of
// them, give the loss and gradients of the step as one batch. Here BOPO's micro-batches are
// [used, used] and [degenerate]: a mean of per-micro-batch means would halve the step's loss.
TEST(TrainStep, MicroBatchesOfAStepAddUpToOneMeanOverTheStep) {
  torch::manual_seed(7);
  model::CausalLm lm(tiny(), torch::TensorOptions().dtype(torch::kDouble));
  Fixture f;  // group 0 used, group 1 degenerate
  policy::RolloutItem c = f.items[0];
  c.prompt = {2, 13};
  f.items.push_back(c);
  f.groups.push_back({sample({5, 3}, true, 9), sample({6, 3}, true, 11), sample({7, 7, 3}, true, 14)});
  StageSpec bopo = stage_defaults(StageKind::kBopo);
  bopo.keys_of<BopoKeys>().sft_weight = 0.5;
  auto grads = [&] {
    std::vector<torch::Tensor> out;
    for (const auto& p : lm->parameters()) out.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
    return out;
  };
  lm->zero_grad();
  const auto whole = train_step(lm, {prepare_sampled(f.items, f.groups, bopo)}, bopo, 0);
  const auto whole_grads = grads();
  ASSERT_EQ(whole.groups, 2);
  lm->zero_grad();
  const auto used_first = prepare_sampled({f.items[0], f.items[2]}, {f.groups[0], f.groups[2]}, bopo);
  const auto degenerate = prepare_sampled({f.items[1]}, {f.groups[1]}, bopo);
  EXPECT_EQ(used_first.count, 2.0);
  EXPECT_EQ(degenerate.count, 0.0);
  const auto split = train_step(lm, {used_first, degenerate}, bopo, 0);
  EXPECT_EQ(split.groups, 2);
  EXPECT_EQ(split.skipped_groups, 1);
  EXPECT_NEAR(split.loss, whole.loss, 1e-12);
  const auto split_grads = grads();
  double diff = 0.0;
  for (std::size_t i = 0; i < split_grads.size(); ++i)
    diff = std::max(diff, (split_grads[i] - whole_grads[i]).abs().max().item<double>());
  EXPECT_LT(diff, 1e-12);
  EXPECT_GT(whole_grads[0].abs().max().item<double>(), 0.0);

  // SFT likewise: one mean over the step's solution tokens, not a mean of per-micro-batch means.
  const std::vector<Sequence> a = {{{2, 10, 11}, {5, 6, 7, 3}}}, b = {{{2, 12}, {5, 3}}, {{2, 13}, {7, 3}}};
  std::vector<Sequence> ab = a;
  ab.insert(ab.end(), b.begin(), b.end());
  const auto sft_whole = train_step(lm, {prepare_sft(ab)}, StageSpec{}, 0);
  const auto sft_split = train_step(lm, {prepare_sft(a), prepare_sft(b)}, StageSpec{}, 0);
  EXPECT_NEAR(sft_split.loss, sft_whole.loss, 1e-12);
}

}  // namespace
}  // namespace falcon::train
