#include "falcon/policy/rollout.h"

#include <gtest/gtest.h>

#include "falcon/policy/prompt_text.h"
#include "falcon/problems/registry.h"
#include "falcon/scoring/sample_outcome.h"
#include "falcon/text/tokenizer.h"

namespace falcon::policy {
namespace {

// A long prompt with a short budget beside a short prompt with a long budget: each fits the model
// alone, together (padded to the longest prompt, with the largest budget) they do not. rollout()
// runs them in separate batches, and each item's samples are the ones it gets when run alone.
TEST(Rollout, ItemsThatFitOnlyAloneRunInSeparateBatchesWithTheSameSamples) {
  const auto tokenizer = text::Tokenizer::load(std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model");
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

// What BOPO scores for each sample: the model's own sentence keeps its tokens; a feasible solution
// the model did not write as one (salvaged from a cut-off text, or changed by repair) is scored as
// the delivered text, re-encoded and ended by EOS; an infeasible one keeps its raw tokens.
class DeliveredTokens : public ::testing::Test {
 protected:
  DeliveredTokens()
      : tokenizer_(text::Tokenizer::load(std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model")),
        tsp_(problems::problem_by_name("tsp")) {
    item_.problem = &tsp_;
    item_.instance = tsp_.generate({5}, 3);
  }
  RolloutSample sample(const std::string& text, sampling::StopReason stop, bool repair) const {
    RolloutSample s;
    s.tokens = tokenizer_.encode(text);
    s.stop = stop;
    s.text = text;
    s.outcome = scoring::score_sample(tsp_, *item_.instance, text, repair);
    return s;
  }
  std::vector<int> encoded_with_eos(const problems::Solution& solution) const {
    auto tokens = tokenizer_.encode(tsp_.format(*item_.instance, solution));
    tokens.push_back(tokenizer_.eos_id());
    return tokens;
  }
  std::string tour_text() const { return tsp_.format(*item_.instance, problems::Solution::flat({0, 3, 1, 4, 2})); }

  text::Tokenizer tokenizer_;
  const problems::Problem& tsp_;
  RolloutItem item_;
};

TEST_F(DeliveredTokens, TheModelsOwnSentenceKeepsItsTokensPlusEos) {
  const auto s = sample(tour_text(), sampling::StopReason::kEos, false);
  ASSERT_TRUE(s.outcome.parsed_strict && s.outcome.feasible && !s.outcome.repaired);
  auto expected = s.tokens;
  expected.push_back(tokenizer_.eos_id());
  EXPECT_EQ(delivered_tokens(s, item_, tokenizer_), expected);
}

TEST_F(DeliveredTokens, ACutOffTextTheLenientParserSalvagesIsScoredAsTheDeliveredSolution) {
  const auto full = tour_text();
  const auto cut = full.substr(0, full.find(']') + 1);  // "Route: [...]" without the objective
  // With repair in the loop, a salvaged tour whose constraints hold counts as feasible, and repair
  // did not change it.
  const auto s = sample(cut, sampling::StopReason::kMaxLength, /*repair=*/true);
  ASSERT_TRUE(s.outcome.feasible && !s.outcome.parsed_strict && !s.outcome.repaired) << cut;
  const auto delivered = delivered_tokens(s, item_, tokenizer_);
  EXPECT_EQ(delivered, encoded_with_eos(s.outcome.solution));
  EXPECT_NE(delivered, s.tokens);
  EXPECT_EQ(tokenizer_.decode({delivered.begin(), delivered.end() - 1}), full);
}

TEST_F(DeliveredTokens, AStrictSentenceStoppedByTheLengthLimitGetsItsEos) {
  const auto s = sample(tour_text(), sampling::StopReason::kMaxLength, false);
  ASSERT_TRUE(s.outcome.parsed_strict && s.outcome.feasible);
  EXPECT_EQ(delivered_tokens(s, item_, tokenizer_), encoded_with_eos(s.outcome.solution));
}

TEST_F(DeliveredTokens, AnInfeasibleSampleKeepsItsRawTokensAndARepairedOneIsReencoded) {
  const std::string broken = "Route: [0, 3, 3, 1";  // a repeat, cut off
  const auto raw = sample(broken, sampling::StopReason::kMaxLength, false);
  ASSERT_FALSE(raw.outcome.feasible);
  EXPECT_EQ(delivered_tokens(raw, item_, tokenizer_), raw.tokens);

  const auto repaired = sample(broken, sampling::StopReason::kMaxLength, true);
  ASSERT_TRUE(repaired.outcome.feasible && repaired.outcome.repaired);
  const auto delivered = delivered_tokens(repaired, item_, tokenizer_);
  EXPECT_EQ(delivered, encoded_with_eos(repaired.outcome.solution));
  EXPECT_TRUE(tsp_.parse(tokenizer_.decode({delivered.begin(), delivered.end() - 1})).error.empty());
}

}  // namespace
}  // namespace falcon::policy
