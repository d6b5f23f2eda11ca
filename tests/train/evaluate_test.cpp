#include "falcon/train/evaluate.h"

#include <gtest/gtest.h>

#include "falcon/problems/registry.h"

namespace falcon::train {
namespace {

TrainExample example_of(int prompt_tokens, int label_tokens) {
  TrainExample example;
  example.problem = &problems::problem_by_name("mis");
  example.prompt.assign(static_cast<std::size_t>(prompt_tokens), 1);
  example.solution.assign(static_cast<std::size_t>(label_tokens), 2);
  return example;
}

TEST(RolloutItem, BudgetIsTwiceTheLabelWithinTheContext) {
  // Room to spare: twice the label (with its EOS) and 16.
  EXPECT_EQ(rollout_item(example_of(100, 50), 1024).max_new_tokens, 116);
  // A long answer beside a long prompt (MIS state notes: 454 + 330 tokens in 1024 positions): what
  // the context leaves, still room for the label, so generation never asks for more positions.
  const policy::RolloutItem item = rollout_item(example_of(454, 330), 1024);
  EXPECT_EQ(item.max_new_tokens, 1024 - 454);
  EXPECT_GE(item.max_new_tokens, 330);
}

}  // namespace
}  // namespace falcon::train
