#include "falcon/sampling/generate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "falcon/core/error.h"

namespace falcon::sampling {
namespace {

model::ModelConfig tiny_config() {
  model::ModelConfig c;
  c.vocab_size = 40;
  c.hidden_size = 32;
  c.intermediate_size = 48;
  c.num_hidden_layers = 2;
  c.num_attention_heads = 4;
  c.num_key_value_heads = 2;
  c.max_position_embeddings = 64;
  return c;
}

// Allows only the tokens in `allowed` (a stand-in for the grammar mask).
class AllowOnly : public SamplerStep {
 public:
  explicit AllowOnly(std::set<int> allowed) : allowed_(std::move(allowed)) {}
  std::string name() const override { return "allow_only"; }
  bool is_mask() const override { return true; }
  void apply(int, float* logits, int vocab) override {
    for (int i = 0; i < vocab; ++i)
      if (!allowed_.count(i)) logits[i] = -std::numeric_limits<float>::infinity();
  }
  void accept(int, int token) override { accepted_.insert(token); }
  std::set<int> accepted_;

 private:
  std::set<int> allowed_;
};

// Greedy decoding through the cache equals greedy decoding by full forwards over the sequence.
TEST(Generate, GreedyMatchesFullForwardDecoding) {
  torch::manual_seed(11);
  model::CausalLm lm(tiny_config());
  const std::vector<std::vector<int>> prompts = {{5, 6, 7, 8, 9}, {10, 11}};
  SamplerChain chain;
  GenerateOptions options;
  options.greedy = true;
  options.max_new_tokens = 12;
  options.eos_id = 3;
  auto out = generate(lm, prompts, chain, options);
  ASSERT_EQ(out.size(), 2u);
  torch::NoGradGuard no_grad;
  for (const auto& seq : out) {
    std::vector<std::int64_t> ids(prompts[seq.prompt].begin(), prompts[seq.prompt].end());
    std::vector<int> expected;
    for (int t = 0; t < options.max_new_tokens; ++t) {
      auto logits = lm->forward(torch::tensor(ids).unsqueeze(0)).select(1, -1).squeeze(0);  // (V,)
      const int token = static_cast<int>(logits.argmax().item<std::int64_t>());
      if (token == options.eos_id) break;
      expected.push_back(token);
      ids.push_back(token);
    }
    EXPECT_EQ(seq.tokens, expected) << "prompt " << seq.prompt;
    EXPECT_EQ(seq.stop, static_cast<int>(expected.size()) == options.max_new_tokens ? StopReason::kMaxLength
                                                                                   : StopReason::kEos);
  }
}

TEST(Generate, SamplesDependOnTheirKeyNotOnTheBatch) {
  torch::manual_seed(12);
  model::CausalLm lm(tiny_config());
  SamplerChain chain;
  GenerateOptions options;
  options.samples_per_prompt = 4;
  options.max_new_tokens = 10;
  options.seed = 99;
  options.eos_id = -1;  // never stop early
  options.prompt_keys = {7, 8};
  auto both = generate(lm, {{4, 5, 6}, {9, 9, 9, 9}}, chain, options);
  options.prompt_keys = {8};
  auto alone = generate(lm, {{9, 9, 9, 9}}, chain, options);
  ASSERT_EQ(both.size(), 8u);
  ASSERT_EQ(alone.size(), 4u);
  std::set<std::vector<int>> distinct;
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(both[4 + s].tokens, alone[s].tokens) << "sample " << s;
    EXPECT_NEAR(both[4 + s].logprob, alone[s].logprob, 1e-4);
    distinct.insert(alone[s].tokens);
    EXPECT_EQ(alone[s].tokens.size(), 10u);
    EXPECT_EQ(alone[s].stop, StopReason::kMaxLength);
  }
  EXPECT_GT(distinct.size(), 1u);  // N samples are not copies of one another
}

// Rounds (adaptive Best-of-N): 8 samples drawn as 3 + 5 with first_sample and a fixed stride
// are the 8 samples of one call with the same stride, sample for sample.
TEST(Generate, SamplesDrawnInRoundsEqualOneCallWithTheSameStride) {
  torch::manual_seed(13);
  model::CausalLm lm(tiny_config());
  SamplerChain chain;
  GenerateOptions options;
  options.max_new_tokens = 8;
  options.seed = 5;
  options.eos_id = -1;
  options.prompt_keys = {3, 4};
  options.key_stride = 8;
  options.samples_per_prompt = 8;
  const std::vector<std::vector<int>> prompts = {{4, 5, 6}, {9, 9}};
  auto once = generate(lm, prompts, chain, options);
  options.samples_per_prompt = 3;
  auto first = generate(lm, prompts, chain, options);
  options.first_sample = 3;
  options.samples_per_prompt = 5;
  auto second = generate(lm, prompts, chain, options);
  for (int p = 0; p < 2; ++p) {
    for (int k = 0; k < 3; ++k) EXPECT_EQ(first[p * 3 + k].tokens, once[p * 8 + k].tokens) << p << " " << k;
    for (int k = 0; k < 5; ++k) EXPECT_EQ(second[p * 5 + k].tokens, once[p * 8 + 3 + k].tokens) << p << " " << 3 + k;
  }
  options.first_sample = 4;  // 4 + 5 > stride 8: streams would overlap the next prompt's
  EXPECT_THROW(generate(lm, prompts, chain, options), Error);
}

TEST(Generate, MaskStepsConstrainEveryTokenAndDeadEndsStop) {
  torch::manual_seed(13);
  model::CausalLm lm(tiny_config());
  SamplerChain chain = make_chain({/*temperature=*/0.7, /*top_k=*/5, /*top_p=*/0.9});
  const std::set<int> allowed = {12, 13, 14, 3};
  chain.insert(chain.begin(), std::make_unique<AllowOnly>(allowed));
  auto* mask = static_cast<AllowOnly*>(chain.front().get());
  GenerateOptions options;
  options.samples_per_prompt = 8;
  options.max_new_tokens = 16;
  GenerateStats stats;
  auto out = generate(lm, {{20, 21, 22}}, chain, options, &stats);
  for (const auto& seq : out)
    for (int token : seq.tokens) EXPECT_TRUE(allowed.count(token)) << token;
  for (int token : mask->accepted_) EXPECT_TRUE(allowed.count(token));
  EXPECT_GT(stats.generated_tokens, 0);
  EXPECT_GT(stats.model_seconds, 0.0);

  SamplerChain nothing;
  nothing.push_back(std::make_unique<AllowOnly>(std::set<int>{}));
  auto dead = generate(lm, {{20, 21}}, nothing, options);
  for (const auto& seq : dead) {
    EXPECT_EQ(seq.stop, StopReason::kDeadEnd);
    EXPECT_TRUE(seq.tokens.empty());
  }
}

TEST(Generate, FirstTokenFrequenciesFollowTheModel) {
  torch::manual_seed(14);
  model::CausalLm lm(tiny_config());
  SamplerChain chain;
  GenerateOptions options;
  options.samples_per_prompt = 4000;
  options.max_new_tokens = 1;
  options.eos_id = -1;
  const std::vector<int> prompt = {30, 31};
  auto out = generate(lm, {prompt}, chain, options);
  torch::NoGradGuard no_grad;
  auto probs = torch::softmax(lm->forward(torch::tensor({30L, 31L}).unsqueeze(0)).select(1, -1).squeeze(0), -1);
  std::vector<double> counts(40, 0.0);
  for (const auto& seq : out) counts[seq.tokens.at(0)] += 1.0;
  for (int v = 0; v < 40; ++v) {
    const double p = probs[v].item<double>();
    const double sd = std::sqrt(p * (1 - p) / 4000.0);
    EXPECT_NEAR(counts[v] / 4000.0, p, 5 * sd + 1e-3) << "token " << v;
  }
}

// A grammar in miniature whose text is mostly written for the model: after a choice c (tokens 5 ..
// 9) the next c - 4 tokens are forced (20, 21, ...), as a computed note would be; EOS (3) may
// end the text between notes.
class ChoiceThenNote : public SamplerStep {
 public:
  std::string name() const override { return "choice_then_note"; }
  bool is_mask() const override { return true; }
  void begin(const RowLayout& layout) override { pending_.assign(layout.rows(), {}); }
  void apply(int row, float* logits, int vocab) override {
    for (int i = 0; i < vocab; ++i) {
      const bool allowed = pending_[row].empty() ? (i == 3 || (i >= 5 && i <= 9)) : i == pending_[row].front();
      if (!allowed) logits[i] = -std::numeric_limits<float>::infinity();
    }
  }
  void accept(int row, int token) override {
    auto& note = pending_[row];
    if (!note.empty()) {
      note.erase(note.begin());
    } else if (token >= 5 && token <= 9) {
      for (int k = 0; k < token - 4; ++k) note.push_back(20 + k);
    }
  }

 private:
  std::vector<std::vector<int>> pending_;
};

// Jump-forward decoding takes the forced tokens in the same call as the pick before them: the same
// texts, stops and log-probabilities as one token a call, greedy and sampled, in fewer calls.
TEST(Generate, JumpForwardEqualsOneTokenACall) {
  torch::manual_seed(14);
  model::CausalLm lm(tiny_config());
  const std::vector<std::vector<int>> prompts = {{4, 5, 6}, {9, 9, 9, 9, 9}};
  for (const bool greedy : {true, false}) {
    GenerateOptions options;
    options.greedy = greedy;
    options.samples_per_prompt = greedy ? 1 : 6;
    options.max_new_tokens = 17;  // cuts some notes short
    options.seed = 21;
    options.eos_id = 3;
    auto run = [&](bool jump, GenerateStats& stats) {
      SamplerChain chain;
      chain.push_back(std::make_unique<ChoiceThenNote>());
      options.jump_forward = jump;
      return generate(lm, prompts, chain, options, &stats);
    };
    GenerateStats one_stats, jump_stats;
    const auto one = run(false, one_stats), jump = run(true, jump_stats);
    ASSERT_EQ(one.size(), jump.size());
    std::set<StopReason> stops;
    for (std::size_t r = 0; r < one.size(); ++r) {
      EXPECT_EQ(jump[r].tokens, one[r].tokens) << "row " << r << (greedy ? " greedy" : " sampled");
      EXPECT_EQ(jump[r].stop, one[r].stop) << "row " << r;
      EXPECT_NEAR(jump[r].logprob, one[r].logprob, 1e-4) << "row " << r;
      stops.insert(one[r].stop);
    }
    EXPECT_EQ(jump_stats.generated_tokens, one_stats.generated_tokens);
    EXPECT_EQ(one_stats.forced_tokens, 0);
    EXPECT_GT(jump_stats.forced_tokens, 0);
    EXPECT_LT(jump_stats.steps, one_stats.steps);
    if (!greedy) EXPECT_EQ(stops.size(), 2u);  // some texts end with EOS, some at max_new_tokens
  }
}

TEST(Generate, RejectsPromptsThatDoNotFit) {
  model::CausalLm lm(tiny_config());
  SamplerChain chain;
  GenerateOptions options;
  options.max_new_tokens = 60;
  EXPECT_THROW(generate(lm, {std::vector<int>(10, 5)}, chain, options), Error);
  EXPECT_THROW(generate(lm, {std::vector<int>{}}, chain, options), Error);
}

}  // namespace
}  // namespace falcon::sampling
