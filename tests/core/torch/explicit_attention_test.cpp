#include "falcon/core/torch/explicit_attention.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "falcon/core/torch/shim.h"

namespace falcon::torch_shim {
namespace {

// Hugging Face's eager attention: repeat_kv, then softmax(q k^T / sqrt(D) + mask) v.
torch::Tensor textbook(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, torch::Tensor mask,
                       bool causal) {
  const auto groups = q.size(1) / k.size(1);
  auto repeat = [groups](const torch::Tensor& x) { return x.repeat_interleave(groups, /*dim=*/1); };
  auto scores = torch::matmul(q, repeat(k).transpose(-2, -1)) / std::sqrt(static_cast<double>(q.size(-1)));
  if (mask.defined()) {
    scores = scores + mask;
  } else if (causal) {
    const auto t = q.size(2), s = k.size(2);
    scores = scores.masked_fill(torch::ones({t, s}, torch::kBool).triu(s - t + 1), -INFINITY);
  }
  return torch::matmul(torch::softmax(scores, -1), repeat(v));
}

double max_abs_diff(const torch::Tensor& a, const torch::Tensor& b) { return (a - b).abs().max().item<double>(); }

struct Case {
  std::int64_t heads, kv_heads, t, s;
};

TEST(ExplicitAttention, GroupedQueryHeadsEqualRepeatedKeys) {
  torch::manual_seed(0);
  const auto options = torch::TensorOptions().dtype(torch::kDouble);
  // T above 128 runs causal attention in blocks of query positions (the last one partial).
  for (const auto& c : {Case{4, 4, 5, 5}, Case{4, 2, 5, 5}, Case{6, 1, 3, 7}, Case{4, 2, 1, 6}, Case{2, 1, 300, 300},
                        Case{4, 2, 200, 260}}) {
    const auto q = torch::randn({2, c.heads, c.t, 8}, options);
    const auto k = torch::randn({2, c.kv_heads, c.s, 8}, options), v = torch::randn({2, c.kv_heads, c.s, 8}, options);
    SCOPED_TRACE("H=" + std::to_string(c.heads) + " Hkv=" + std::to_string(c.kv_heads) + " T=" + std::to_string(c.t) +
                 " S=" + std::to_string(c.s));
    for (const bool causal : {true, false})
      EXPECT_LT(max_abs_diff(explicit_attention(q, k, v, torch::Tensor(), causal),
                             textbook(q, k, v, torch::Tensor(), causal)),
                1e-12);
    // A per-sample mask shared by the heads (prefill's left padding), and one per head.
    auto shared = torch::zeros({2, 1, c.t, c.s}, options);
    shared.select(0, 1).narrow(-1, 0, 1).fill_(-INFINITY);  // sample 1 never sees key 0
    EXPECT_LT(max_abs_diff(explicit_attention(q, k, v, shared, true), textbook(q, k, v, shared, true)), 1e-12);
    auto per_head = torch::randn({2, c.heads, c.t, c.s}, options);
    EXPECT_LT(max_abs_diff(explicit_attention(q, k, v, per_head, false), textbook(q, k, v, per_head, false)), 1e-12);
  }
}

// Gradients of q, k, v through both paths: the causal blocks (T = 260: three blocks) and masks.
TEST(ExplicitAttention, GradientsEqualTheTextbookFormula) {
  torch::manual_seed(1);
  auto check = [](std::int64_t b, std::int64_t heads, std::int64_t kv_heads, std::int64_t t, const torch::Tensor& mask) {
    const auto options = torch::TensorOptions().dtype(torch::kDouble).requires_grad(true);
    const auto q = torch::randn({b, heads, t, 4}, options), k = torch::randn({b, kv_heads, t, 4}, options);
    const auto v = torch::randn({b, kv_heads, t, 4}, options), weights = torch::randn({b, heads, t, 4}, torch::kDouble);
    auto grads_of = [&](auto attention) {
      for (auto* x : {&q, &k, &v}) x->mutable_grad() = torch::Tensor();
      (attention(q, k, v, mask, true) * weights).sum().backward();
      return std::vector<torch::Tensor>{q.grad().clone(), k.grad().clone(), v.grad().clone()};
    };
    // With gradients wanted, float / double causal attention runs as one autograd node.
    EXPECT_LT(max_abs_diff(explicit_attention(q, k, v, mask, true), textbook(q, k, v, mask, true)), 1e-12);
    const auto ours = grads_of(explicit_attention), expected = grads_of(textbook);
    for (int i = 0; i < 3; ++i) EXPECT_LT(max_abs_diff(ours[i], expected[i]), 1e-12) << "T " << t << " input " << i;
  };
  check(2, 4, 2, 5, torch::Tensor());
  check(1, 2, 1, 260, torch::Tensor());
  // Causal plus padding: sample 0 never sees key 1 (every row still keeps key 0).
  auto mask = torch::zeros({5, 5}, torch::kDouble)
                  .masked_fill(torch::ones({5, 5}, torch::kBool).triu(1), -INFINITY)
                  .expand({2, 1, 5, 5})
                  .clone();  // (B, 1, T, S)
  mask.select(0, 0).narrow(-1, 1, 1).fill_(-INFINITY);
  check(2, 4, 2, 5, mask);
}

TEST(ExplicitAttention, CausalBiasFollowsItsShapeWhenCached) {
  for (int pass = 0; pass < 2; ++pass)  // the second pass reads the per-thread cache
    for (const auto& c : {Case{1, 1, 4, 4}, Case{2, 1, 3, 5}, Case{1, 1, 4, 4}, Case{3, 1, 1, 2}}) {
      const auto g = c.heads, t = c.t, s = c.s;
      const auto bias = causal_bias(g, t, s, torch::TensorOptions().dtype(torch::kFloat));
      ASSERT_EQ(bias.sizes(), (std::vector<std::int64_t>{1, g * t, s}));
      for (std::int64_t row = 0; row < g * t; ++row)
        for (std::int64_t j = 0; j < s; ++j) {
          const float expected = j <= row / g + s - t ? 0.0f : -std::numeric_limits<float>::infinity();
          EXPECT_EQ(bias[0][row][j].item<float>(), expected) << "g=" << g << " t=" << t << " s=" << s;
        }
    }
  // The dtype is part of the key.
  EXPECT_EQ(causal_bias(1, 4, 4, torch::TensorOptions().dtype(torch::kDouble)).scalar_type(), torch::kDouble);
}

TEST(TorchShim, GroupedQueryAttentionMatchesTheTextbook) {
  torch::manual_seed(2);
  const auto q = torch::randn({2, 4, 6, 8}), k = torch::randn({2, 2, 6, 8}), v = torch::randn({2, 2, 6, 8});
  const auto out = scaled_dot_product_attention(q, k, v, torch::Tensor(), /*causal=*/true);
  EXPECT_LT(max_abs_diff(out, textbook(q, k, v, torch::Tensor(), true)), 1e-5);
}

}  // namespace
}  // namespace falcon::torch_shim
