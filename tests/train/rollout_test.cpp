#include "falcon/train/rollout.h"

#include <gtest/gtest.h>

#include "falcon/problems/registry.h"
#include "falcon/text/tokenizer.h"
#include "falcon/train/examples.h"

namespace falcon::train {
namespace {

// A long prompt with a short budget beside a short prompt with a long budget: each fits the model
// alone, together (padded to the longest prompt, with the largest budget) they do not. rollout()
// runs them in separate batches, and each item's samples are the ones it gets when run alone.
TEST(Rollout, ItemsThatFitOnlyAloneRunInSeparateBatchesWithTheSameSamples) {
  const auto tokenizer = text::Tokenizer::load(std::string(FALCON_TEST_DATA_DIR) + "/tokenizer/tiny_bpe.model");
  const auto& tsp = problems::problem_by_name("tsp");
  auto item_for = [&](int n, std::uint64_t key) {
    RolloutItem item;
    item.problem = &tsp;
    item.instance = tsp.generate({n}, key);
    item.key = key;
    item.prompt = {tokenizer.bos_id()};
    const auto body = tokenizer.encode(prompt_text(tsp, *item.instance));
    item.prompt.insert(item.prompt.end(), body.begin(), body.end());
    return item;
  };
  auto long_prompt = item_for(14, 1), short_prompt = item_for(4, 2);
  const int slack = static_cast<int>(long_prompt.prompt.size() - short_prompt.prompt.size());
  ASSERT_GT(slack, 4);
  model::ModelConfig c;
  c.vocab_size = tokenizer.vocab_size();
  c.hidden_size = 32;
  c.intermediate_size = 48;
  c.num_hidden_layers = 1;
  c.num_attention_heads = 2;
  c.num_key_value_heads = 1;
  c.max_position_embeddings = static_cast<std::int64_t>(long_prompt.prompt.size()) + 4;
  long_prompt.max_new_tokens = 4;                    // exactly fills the context
  short_prompt.max_new_tokens = 4 + slack;           // likewise
  torch::manual_seed(5);
  model::CausalLm lm(c);

  RolloutOptions options;
  options.samples_per_item = 3;
  options.sampling.temperature = 1.0;
  options.seed = 9;
  const auto together = rollout(lm, tokenizer, {long_prompt, short_prompt}, options, nullptr);
  const auto alone_long = rollout(lm, tokenizer, {long_prompt}, options, nullptr);
  const auto alone_short = rollout(lm, tokenizer, {short_prompt}, options, nullptr);
  ASSERT_EQ(together.size(), 2u);
  ASSERT_EQ(together[0].size(), 3u);
  ASSERT_EQ(together[1].size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(together[0][k].tokens, alone_long[0][k].tokens) << k;
    EXPECT_EQ(together[1][k].tokens, alone_short[0][k].tokens) << k;
    EXPECT_LE(together[0][k].tokens.size(), 4u);
  }
}

}  // namespace
}  // namespace falcon::train
