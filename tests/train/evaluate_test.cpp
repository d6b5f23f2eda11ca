#include "falcon/train/evaluate.h"

#include <gtest/gtest.h>

#include "falcon/problems/registry.h"
#include "falcon/solvers/solver.h"

namespace falcon::train {
namespace {

const text::Tokenizer& tokenizer() {
  static const auto t = text::Tokenizer::load(std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model");
  return t;
}

TrainExample example_of(int prompt_tokens, int label_tokens) {
  TrainExample example;
  example.problem = &problems::problem_by_name("tsp");
  example.instance = example.problem->generate({12, "uniform", {}}, 5);
  example.prompt.assign(static_cast<std::size_t>(prompt_tokens), 1);
  example.solution.assign(static_cast<std::size_t>(label_tokens), 2);
  return example;
}

TEST(RolloutItem, BudgetComesFromTheInstanceNeverTheLabel) {
  const auto example = example_of(100, 50);
  const auto heuristic = solvers::solver_by_name("tsp", "nearest_neighbor").solve(*example.instance, {});
  const int tokens = static_cast<int>(tokenizer().encode(example.problem->format(*example.instance, heuristic)).size());
  // Twice the simple heuristic's answer (with its EOS) and 16, whatever the label's length.
  EXPECT_EQ(rollout_item(example, tokenizer(), 1024).max_new_tokens, 2 * (tokens + 1) + 16);
  EXPECT_EQ(rollout_item(example_of(100, 3), tokenizer(), 1024).max_new_tokens, 2 * (tokens + 1) + 16);
  // A long prompt: what the context leaves, so generation never asks for more positions.
  const policy::RolloutItem item = rollout_item(example_of(1000, 50), tokenizer(), 1024);
  EXPECT_EQ(item.max_new_tokens, 1024 - 1000);
}

}  // namespace
}  // namespace falcon::train
