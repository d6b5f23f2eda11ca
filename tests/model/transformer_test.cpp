#include "falcon/model/transformer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <utility>

#include "falcon/core/error.h"
#include <set>
#include <string>
#include <vector>

namespace falcon::model {
namespace {

// HF's formula, the oracle for apply_rotary: x * cos + rotate_half(x) * sin.
torch::Tensor hf_apply_rotary(const torch::Tensor& x, const torch::Tensor& cos, const torch::Tensor& sin) {
  const auto half = x.size(-1) / 2;
  auto rotated = torch::cat({-x.narrow(-1, half, half), x.narrow(-1, 0, half)}, -1);  // (B, H, T, D)
  return x * cos + rotated * sin;                                                    // (B, H, T, D)
}

ModelConfig tiny_config() {
  ModelConfig c;
  c.vocab_size = 61;
  c.hidden_size = 32;
  c.intermediate_size = 48;
  c.num_hidden_layers = 2;
  c.num_attention_heads = 4;
  c.num_key_value_heads = 2;  // grouped-query attention
  c.attention_bias = true;
  return c;
}

double max_abs_diff(const torch::Tensor& a, const torch::Tensor& b) {
  return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
}

torch::Tensor ids(const std::vector<std::int64_t>& v) { return torch::tensor(v, torch::kInt64); }

TEST(Transformer, ParameterNamesAreHuggingFaceKeys) {
  auto config = tiny_config();
  config.num_hidden_layers = 1;
  CausalLm model(config);
  std::set<std::string> names;
  for (const auto& p : model->named_parameters()) names.insert(p.key());
  const std::set<std::string> expected = {
      "model.embed_tokens.weight",
      "model.layers.0.input_layernorm.weight",
      "model.layers.0.self_attn.q_proj.weight",
      "model.layers.0.self_attn.q_proj.bias",
      "model.layers.0.self_attn.k_proj.weight",
      "model.layers.0.self_attn.k_proj.bias",
      "model.layers.0.self_attn.v_proj.weight",
      "model.layers.0.self_attn.v_proj.bias",
      "model.layers.0.self_attn.o_proj.weight",
      "model.layers.0.post_attention_layernorm.weight",
      "model.layers.0.mlp.gate_proj.weight",
      "model.layers.0.mlp.up_proj.weight",
      "model.layers.0.mlp.down_proj.weight",
      "model.norm.weight",
      "lm_head.weight",
  };
  EXPECT_EQ(names, expected);
  EXPECT_EQ(model->named_buffers().size(), 0u);  // HF's rotary inv_freq is not persistent either

  std::int64_t count = 0;
  for (const auto& p : model->parameters()) count += p.numel();
  EXPECT_EQ(count, config.parameter_count());

  config.tie_word_embeddings = true;
  CausalLm tied(config);
  for (const auto& p : tied->named_parameters()) EXPECT_NE(p.key(), "lm_head.weight");
  count = 0;
  for (const auto& p : tied->parameters()) count += p.numel();
  EXPECT_EQ(count, config.parameter_count());
}

TEST(Transformer, Bf16AutocastTracksFp32AndSeesEachUpdate) {
  torch::manual_seed(3);
  CausalLm model(tiny_config());
  const auto input = torch::randint(0, 61, {3, 40}, torch::kInt64);  // (B, T)
  const auto fp32 = model->forward(input).detach();                   // (B, T, V)
  const double scale = fp32.abs().max().item<double>();

  model->set_autocast(torch::kBFloat16);
  auto logits = model->forward(input);  // (B, T, V)
  EXPECT_EQ(logits.scalar_type(), torch::kBFloat16);  // lm_head ran in bf16
  EXPECT_LT(max_abs_diff(logits, fp32), 0.03 * scale);
  logits.to(torch::kFloat).logsumexp(-1).sum().backward();
  for (const auto& p : model->named_parameters()) {  // the weights and their gradients stay fp32
    EXPECT_EQ(p.value().scalar_type(), torch::kFloat) << p.key();
    ASSERT_TRUE(p.value().grad().defined()) << p.key();
    EXPECT_EQ(p.value().grad().scalar_type(), torch::kFloat) << p.key();
  }
  // Outside the forward, autocast is off again ...
  EXPECT_EQ(torch::mm(torch::ones({2, 2}), torch::ones({2, 2})).scalar_type(), torch::kFloat);
  // ... and its cast weights are gone: the next forward sees an update (a stale bf16 copy of
  // lm_head would give the old logits, not twice them).
  {
    torch::NoGradGuard no_grad;
    model->lm_head->weight.mul_(2.0);
  }
  const auto updated = model->forward(input).detach();  // (B, T, V)
  model->set_autocast(torch::kFloat);
  EXPECT_LT(max_abs_diff(updated, model->forward(input).detach()), 0.06 * scale);
  EXPECT_GT(max_abs_diff(updated, fp32), 0.5 * scale);
}

TEST(Transformer, RightPaddingLeavesEarlierLogitsUnchanged) {
  torch::manual_seed(1);
  CausalLm model(tiny_config());
  torch::NoGradGuard no_grad;
  auto short_logits = model->forward(ids({5, 9, 13}).unsqueeze(0));          // (1, 3, V)
  auto padded_logits = model->forward(ids({5, 9, 13, 0, 0}).unsqueeze(0));  // (1, 5, V)
  // Not bitwise: the matmul kernels block differently for T = 3 and T = 5.
  EXPECT_LT(max_abs_diff(short_logits, padded_logits.narrow(1, 0, 3)), 1e-6);
}

// Prompts left-padded with token 0 to `p` columns: (B, P) ids and (B,) real lengths, prefill's input.
std::pair<torch::Tensor, torch::Tensor> left_padded(const std::vector<std::vector<std::int64_t>>& prompts,
                                                    std::int64_t p) {
  const auto b_count = static_cast<std::int64_t>(prompts.size());
  auto padded = torch::zeros({b_count, p}, torch::kInt64);  // (B, P)
  auto lengths = torch::zeros({b_count}, torch::kInt64);    // (B,)
  for (std::int64_t b = 0; b < b_count; ++b) {
    const auto len = static_cast<std::int64_t>(prompts[b].size());
    padded[b].narrow(0, p - len, len).copy_(ids(prompts[b]));
    lengths[b] = len;
  }
  return {padded, lengths};
}

// Prompts of different lengths (left-padded), N samples each with their own continuations, fed
// to the cache one token and then several tokens at a time: every row's logits must equal a full
// forward over that row's unpadded prompt + continuation. Without gradients the cached attention
// runs the CPU kernel, with gradients the batched matmuls (cached_attention.h): both are checked.
void expect_cached_decoding_equals_full_forward(bool with_gradients) {
  torch::manual_seed(2);
  CausalLm model(tiny_config());
  model->eval();
  std::optional<torch::NoGradGuard> no_grad;
  if (!with_gradients) no_grad.emplace();
  const std::vector<std::vector<std::int64_t>> prompts = {{3, 7, 11, 2, 9}, {4, 1}, {8, 8, 60}};
  const std::int64_t n = 3, steps = 6, chunk = 3;
  const auto [padded, lengths] = left_padded(prompts, 5);
  KvCache cache;
  auto last = model->prefill(padded, lengths, cache);  // (B, V)
  cache.fork(n, steps + chunk);
  auto continuation = torch::randint(1, 61, {3 * n, steps + chunk}, torch::kInt64);  // (R, S)

  std::vector<torch::Tensor> cached;  // per step: (R, T, V)
  for (std::int64_t s = 0; s < steps; ++s) cached.push_back(model->decode(continuation.narrow(1, s, 1), cache));
  cached.push_back(model->decode(continuation.narrow(1, steps, chunk), cache));
  auto cached_logits = torch::cat(cached, 1);  // (R, S, V)
  EXPECT_EQ(cached_logits.requires_grad(), with_gradients);

  double worst = 0.0;
  for (std::int64_t r = 0; r < 3 * n; ++r) {
    const auto& prompt = prompts[r / n];
    auto full_ids = torch::cat({ids(prompt), continuation[r]}).unsqueeze(0);  // (1, len + S)
    auto full = model->forward(full_ids).squeeze(0);                           // (len + S, V)
    const auto len = static_cast<std::int64_t>(prompt.size());
    worst = std::max(worst, max_abs_diff(full[len - 1], last[r / n]));
    worst = std::max(worst, max_abs_diff(full.narrow(0, len, steps + chunk), cached_logits[r]));
  }
  std::printf("KV-cached (%s) vs full forward: max |diff| = %.3g over %lld rows\n",
              with_gradients ? "matmuls, with gradients" : "CPU kernel", worst, static_cast<long long>(3 * n));
  EXPECT_LT(worst, 1e-5);
  EXPECT_EQ(cache.sample_length(), steps + chunk);
  EXPECT_THROW(model->decode(continuation.narrow(1, 0, 1), cache), Error);  // capacity exhausted
}

TEST(Transformer, KvCachedDecodingEqualsFullForward) { expect_cached_decoding_equals_full_forward(false); }

TEST(Transformer, KvCachedDecodingWithGradientsEqualsFullForward) { expect_cached_decoding_equals_full_forward(true); }

// Rows that take different numbers of tokens in each call (jump-forward decoding: a row feeds the
// tokens its grammar forces along with its pick), then all one token: every real position's
// logits equal a full forward over that row's prompt and tokens so far.
void expect_ragged_decoding_equals_full_forward(bool with_gradients) {
  torch::manual_seed(4);
  CausalLm model(tiny_config());
  model->eval();
  std::optional<torch::NoGradGuard> no_grad;
  if (!with_gradients) no_grad.emplace();
  const std::vector<std::vector<std::int64_t>> prompts = {{3, 7, 11, 2, 9}, {4, 1}};
  const std::int64_t n = 2, rows = 4, capacity = 8;
  const auto [padded, lengths] = left_padded(prompts, 5);
  KvCache cache;
  model->prefill(padded, lengths, cache);
  cache.fork(n, capacity);
  auto continuation = torch::randint(1, 61, {rows, capacity}, torch::kInt64);  // (R, C)
  const std::vector<std::vector<std::int64_t>> calls = {{1, 3, 0, 2}, {3, 1, 2, 2}, {2, 0, 3, 1}};
  std::vector<std::int64_t> held(rows, 0);
  std::vector<std::vector<torch::Tensor>> logits(rows);  // per row: (1, V) per real position
  auto feed = [&](const std::vector<std::int64_t>& counts) {
    const auto t = *std::max_element(counts.begin(), counts.end());
    auto tokens = torch::zeros({rows, t}, torch::kInt64);  // (R, T), padding 0
    for (std::int64_t r = 0; r < rows; ++r)
      tokens[r].narrow(0, 0, counts[r]).copy_(continuation[r].narrow(0, held[r], counts[r]));
    auto out = model->decode(tokens, counts, cache);  // (R, T, V)
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t i = 0; i < counts[r]; ++i) logits[r].push_back(out[r][i].unsqueeze(0));
      // The padding is not computed: its logits are the zeros it was packed out of.
      for (std::int64_t i = counts[r]; i < t; ++i) EXPECT_EQ(out[r][i].abs().max().item<float>(), 0.0f);
      held[r] += counts[r];
    }
  };
  for (const auto& counts : calls) feed(counts);
  EXPECT_EQ(cache.sample_lengths(), (std::vector<std::int64_t>{6, 4, 5, 5}));
  EXPECT_EQ(cache.sample_length(), 6);
  auto one = torch::zeros({rows, 1}, torch::kInt64);
  for (std::int64_t r = 0; r < rows; ++r) one[r][0] = continuation[r][held[r]];
  auto last = model->decode(one, cache);  // rows of unequal lengths, one token each: (R, 1, V)
  for (std::int64_t r = 0; r < rows; ++r) logits[r].push_back(last[r]), ++held[r];

  double worst = 0.0;
  for (std::int64_t r = 0; r < rows; ++r) {
    const auto& prompt = prompts[r / n];
    const auto len = static_cast<std::int64_t>(prompt.size());
    auto full = model->forward(torch::cat({ids(prompt), continuation[r].narrow(0, 0, held[r])}).unsqueeze(0))
                    .squeeze(0);  // (len + held, V)
    worst = std::max(worst, max_abs_diff(full.narrow(0, len, held[r]), torch::cat(logits[r])));
  }
  std::printf("ragged KV-cached (%s) vs full forward: max |diff| = %.3g\n",
              with_gradients ? "matmuls, with gradients" : "CPU kernel", worst);
  EXPECT_LT(worst, 1e-5);
  EXPECT_THROW(model->decode(one, {1, 1, 2, 1}, cache), Error);   // a count above T
  EXPECT_THROW(model->decode(torch::zeros({rows, 2}, torch::kInt64), {1, 1, 1, 1}, cache), Error);  // no row takes T
  EXPECT_THROW(model->decode(torch::zeros({rows, 2}, torch::kInt64), {2, 2, 2, 2}, cache), Error);  // row 0 full
}

TEST(Transformer, RaggedDecodingEqualsFullForward) { expect_ragged_decoding_equals_full_forward(false); }

TEST(Transformer, RaggedDecodingWithGradientsEqualsFullForward) { expect_ragged_decoding_equals_full_forward(true); }

// The per-forward rotary tables on the (B, T, H, D) layout rotate exactly like HF's formula.
TEST(Transformer, HeadTablesRotateLikeRotateHalf) {
  torch::manual_seed(8);
  RotaryEmbedding rope(8, 10000.0);
  auto positions = torch::tensor({{0, 1, 2, 7}, {3, 4, 5, 100}}, torch::kInt64);  // (B, T)
  auto x = torch::randn({2, 4, 3, 8});                                               // (B, T, H, D)
  const auto [cos, sin] = rope.tables(positions, torch::kFloat);                      // (B, 1, T, D)
  auto expected = hf_apply_rotary(x.transpose(1, 2), cos, sin).transpose(1, 2);          // (B, T, H, D)
  auto got = apply_rotary(x, rope.head_tables(positions, torch::kFloat));
  EXPECT_LT(max_abs_diff(got, expected), 1e-6);
}

// RMSNorm's float path (no conversions, statistics in place) against the formula in double.
TEST(Transformer, RmsNormMatchesTheFormula) {
  torch::manual_seed(9);
  RmsNorm norm(16, 1e-5);
  {
    torch::NoGradGuard no_grad;
    norm->weight.normal_();
  }
  auto x = torch::randn({3, 5, 16}).requires_grad_(true);
  auto xd = x.detach().to(torch::kDouble);
  auto expected = norm->weight.detach().to(torch::kDouble) * xd * torch::rsqrt(xd.pow(2).mean(-1, true) + 1e-5);
  auto got = norm(x);
  EXPECT_LT(max_abs_diff(got, expected), 1e-6);
  got.sum().backward();  // the in-place statistics keep autograd intact
  EXPECT_TRUE(x.grad().defined() && norm->weight.grad().defined());
}

TEST(Transformer, SharedPromptCacheIsStoredOnce) {
  torch::manual_seed(3);
  CausalLm model(tiny_config());
  torch::NoGradGuard no_grad;
  KvCache one, many;
  auto prompt = torch::randint(1, 61, {1, 40}, torch::kInt64);
  model->prefill(prompt, ids({40}), one);
  model->prefill(prompt, ids({40}), many);
  one.fork(1, 8);
  many.fork(16, 8);
  const auto kv_width = 2 * 2 * 2 * 8;  // layers * (k, v) * kv heads * head_dim: elements per token
  EXPECT_EQ(one.bytes(), kv_width * (40 + 8) * 4);
  EXPECT_EQ(many.bytes(), kv_width * (40 + 16 * 8) * 4);  // the 40 prompt positions once, not 16 times
}

TEST(Lora, ZeroInitialisedAdapterIsTheBaseModel) {
  torch::manual_seed(4);
  CausalLm model(tiny_config());
  torch::NoGradGuard no_grad;
  auto input = torch::randint(0, 61, {2, 7}, torch::kInt64);
  auto base = model->forward(input);
  model->add_lora({/*rank=*/4, /*alpha=*/8.0, /*dropout=*/0.0});
  EXPECT_EQ(model->adapted_layers().size(), 14u);  // 7 projections x 2 layers
  EXPECT_EQ(max_abs_diff(base, model->forward(input)), 0.0);
  for (const auto& [name, p] : model->named_lora_parameters())
    if (name.find("lora_B") != std::string::npos) {
      EXPECT_EQ(p.abs().max().item<float>(), 0.0f) << name;
    } else {
      EXPECT_GT(p.abs().max().item<float>(), 0.0f) << name;
    }
}

TEST(Lora, MergedEqualsUnmergedAndDisablingGivesTheBase) {
  torch::manual_seed(5);
  CausalLm model(tiny_config());
  torch::NoGradGuard no_grad;
  auto input = torch::randint(0, 61, {2, 7}, torch::kInt64);
  auto base = model->forward(input);
  auto q_weight = model->model->layers[0]->as<DecoderLayerImpl>()->self_attn->q_proj->weight.clone();
  model->add_lora({/*rank=*/4, /*alpha=*/8.0, /*dropout=*/0.0, /*target_modules=*/{"q_proj", "v_proj", "down_proj"}});
  EXPECT_EQ(model->adapted_layers().size(), 6u);
  for (auto& [name, p] : model->named_lora_parameters()) p.normal_(0.0, 0.2);
  auto unmerged = model->forward(input);
  EXPECT_GT(max_abs_diff(base, unmerged), 1e-3);  // the adapter does something

  model->merge_adapters();
  auto merged = model->forward(input);
  std::printf("merged vs unmerged: max |diff| = %.3g\n", max_abs_diff(merged, unmerged));
  EXPECT_LT(max_abs_diff(merged, unmerged), 1e-5);
  EXPECT_THROW(model->merge_adapters(), Error);
  {
    AdaptersDisabled reference(model);  // merged: the layer subtracts the adapter back out
    EXPECT_LT(max_abs_diff(model->forward(input), base), 1e-5);
  }
  model->unmerge_adapters();
  auto q_after = model->model->layers[0]->as<DecoderLayerImpl>()->self_attn->q_proj->weight;
  EXPECT_LT(max_abs_diff(q_after, q_weight), 1e-6);
  {
    AdaptersDisabled reference(model);  // W + BA - BA is W up to rounding
    EXPECT_LT(max_abs_diff(model->forward(input), base), 1e-6);
  }
  EXPECT_LT(max_abs_diff(model->forward(input), unmerged), 1e-6);  // the guard restored the adapters
}

TEST(Lora, FrozenBaseGivesGradientsOnlyToAdapters) {
  torch::manual_seed(6);
  CausalLm model(tiny_config());
  model->add_lora({/*rank=*/2, /*alpha=*/4.0, /*dropout=*/0.1});
  model->freeze_base();
  model->train();
  auto input = torch::randint(0, 61, {2, 6}, torch::kInt64);
  auto logits = model->forward(input);  // (B, T, V)
  auto loss = torch::nn::functional::cross_entropy(logits.reshape({-1, 61}), input.reshape({-1}));
  loss.backward();
  int lora_b_with_grad = 0;
  for (const auto& p : model->named_parameters()) {
    const bool is_lora = p.key().find(".lora_") != std::string::npos;
    EXPECT_EQ(p.value().requires_grad(), is_lora) << p.key();
    EXPECT_EQ(p.value().grad().defined(), is_lora) << p.key();
    if (p.key().find(".lora_B.") != std::string::npos)
      lora_b_with_grad += p.value().grad().abs().sum().item<double>() > 0.0;
  }
  EXPECT_EQ(lora_b_with_grad, 14);  // lora_A's gradient is zero while B = 0; every lora_B moves
}

// Central differences in double precision against autograd, over a sample of every parameter
// tensor (base and adapters) of a tiny model.
TEST(Transformer, GradientsMatchFiniteDifferencesInDouble) {
  torch::manual_seed(7);
  auto config = tiny_config();
  config.tie_word_embeddings = true;
  CausalLm model(config, torch::TensorOptions().dtype(torch::kDouble));
  model->add_lora({/*rank=*/2, /*alpha=*/4.0, /*dropout=*/0.0});
  {
    torch::NoGradGuard no_grad;
    for (auto& [name, p] : model->named_lora_parameters()) p.normal_(0.0, 0.1);
  }
  auto input = torch::randint(0, 61, {2, 5}, torch::kInt64);
  auto loss_of = [&] {
    auto logits = model->forward(input);  // (B, T, V)
    return torch::nn::functional::cross_entropy(logits.reshape({-1, 61}), input.roll(-1, 1).reshape({-1}));
  };
  loss_of().backward();
  double worst = 0.0;
  int checked = 0;
  for (auto& item : model->named_parameters()) {
    auto& p = item.value();
    auto flat = p.data().view({-1});
    auto grad = p.grad().view({-1});
    for (int k = 0; k < 3; ++k) {
      const auto i = (k * 7919 + 13) % flat.numel();
      const double original = flat[i].item<double>(), eps = 1e-5;
      torch::NoGradGuard no_grad;
      flat[i] = original + eps;
      const double up = loss_of().item<double>();
      flat[i] = original - eps;
      const double down = loss_of().item<double>();
      flat[i] = original;
      const double numeric = (up - down) / (2 * eps), analytic = grad[i].item<double>();
      // Central differences carry ~1e-10 of rounding and truncation error at eps = 1e-5.
      const double diff = std::abs(numeric - analytic);
      worst = std::max(worst, diff / std::max(1e-4, std::abs(analytic)));
      EXPECT_LE(diff, 1e-9 + 1e-6 * std::abs(analytic)) << item.key() << "[" << i << "]: numeric " << numeric << " analytic " << analytic;
      ++checked;
    }
  }
  std::printf("gradient check: %d entries, max |numeric - analytic| / max(|analytic|, 1e-4) = %.3g\n", checked, worst);
}

}  // namespace
}  // namespace falcon::model
