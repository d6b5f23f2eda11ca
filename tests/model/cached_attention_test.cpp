#include "falcon/model/cached_attention.h"

#include <gtest/gtest.h>

#include <cmath>

#include "falcon/core/error.h"
#include "falcon/model/kv_cache.h"

namespace falcon::model {
namespace {

struct Shape {
  std::int64_t prompts, samples, heads, kv_heads, new_tokens, past, prefix;
  std::int64_t d = 8;  // head size
};

// Random inputs over a cache larger than used (sample keys are a narrowed view, as in decoding),
// with the first prompt left-padded by two positions; keys stored row-major, or position-major as a
// KvCache stores them.
CachedAttentionInputs random_inputs(const Shape& s, torch::ScalarType dtype, bool keys_position_major = false) {
  const auto options = torch::TensorOptions().dtype(dtype);
  const std::int64_t d = s.d, rows = s.prompts * s.samples, total = s.past + s.new_tokens;
  CachedAttentionInputs in;
  in.q = torch::randn({rows, s.new_tokens, s.heads, d}, options);
  in.prefix_k = torch::randn({s.prompts, s.kv_heads, s.prefix, d}, options);
  in.prefix_v = torch::randn({s.prompts, s.kv_heads, s.prefix, d}, options);
  in.prefix_bias = torch::zeros({s.prompts, s.prefix}, torch::kFloat);
  in.prefix_bias[0].narrow(0, 0, std::min<std::int64_t>(2, s.prefix - 1)).fill_(-INFINITY);
  in.sample_k = keys_position_major ? torch::randn({rows, s.kv_heads, d, total + 3}, options).transpose(2, 3)
                                    : torch::randn({rows, s.kv_heads, total + 3, d}, options);
  in.sample_k = in.sample_k.narrow(2, 0, total);
  if (keys_position_major) in.prefix_k = position_major(in.prefix_k);
  in.sample_v = torch::randn({rows, s.kv_heads, total + 3, d}, options).narrow(2, 0, total);
  in.samples = s.samples;
  return in;
}

// Attention of one query row written out directly: softmax over [real prompt keys, own keys
// 0 .. past + i (or the first sample_visible[r][i])] of q.k / sqrt(D), times the values.
torch::Tensor reference(const CachedAttentionInputs& in) {
  const auto rows = in.q.size(0), t = in.q.size(1), heads = in.q.size(2), d = in.q.size(3);
  const auto groups = heads / in.prefix_k.size(1), total = in.sample_k.size(2);
  auto out = torch::zeros_like(in.q);
  for (std::int64_t r = 0; r < rows; ++r) {
    const auto b = r / in.samples;
    for (std::int64_t h = 0; h < heads; ++h)
      for (std::int64_t i = 0; i < t; ++i) {
        const auto hk = h / groups;
        const auto visible = in.sample_visible.defined() ? in.sample_visible[r][i].item<std::int64_t>() : total - t + i + 1;
        auto keys = torch::cat({in.prefix_k[b][hk], in.sample_k[r][hk].narrow(0, 0, visible)});  // (P+V, D)
        auto values = torch::cat({in.prefix_v[b][hk], in.sample_v[r][hk].narrow(0, 0, visible)});
        auto bias = torch::cat({in.prefix_bias[b].to(in.q.scalar_type()), torch::zeros({visible}, in.q.options())});
        auto scores = torch::mv(keys, in.q[r][i][h]) / std::sqrt(static_cast<double>(d)) + bias;
        out[r][i][h] = torch::mv(values.t(), torch::softmax(scores, 0));
      }
  }
  return out;
}

double max_abs_diff(const torch::Tensor& a, const torch::Tensor& b) {
  return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
}

TEST(CachedAttention, KernelAndMatmulsEqualTheDirectFormula) {
  torch::manual_seed(0);
  torch::NoGradGuard no_grad;
  const Shape shapes[] = {
      {1, 1, 4, 4, 1, 0, 5},  // first decoding step, batch 1
      {2, 3, 4, 2, 1, 4, 5},  // N samples per prompt, grouped query heads
      {2, 3, 4, 2, 3, 2, 5},  // several new tokens at once
      {3, 2, 6, 1, 2, 5, 1},  // multi-query attention, one-token prompts
      // head sizes of whole vector registers (32: the cpu_small models), and whole ones plus a rest
      {2, 4, 4, 4, 1, 6, 7, 32},
      {2, 3, 4, 2, 2, 5, 4, 40},
      // contexts of several whole blocks of keys and a rest (the blocks the tiled scores take)
      {2, 2, 4, 2, 4, 37, 21, 32},
  };
  for (const auto& s : shapes) {
    SCOPED_TRACE("B=" + std::to_string(s.prompts) + " N=" + std::to_string(s.samples) + " H=" +
                 std::to_string(s.heads) + " Hkv=" + std::to_string(s.kv_heads) + " T=" + std::to_string(s.new_tokens) +
                 " past=" + std::to_string(s.past) + " P=" + std::to_string(s.prefix) + " D=" + std::to_string(s.d));
    for (const auto dtype : {torch::kDouble, torch::kFloat}) {
      for (const bool keys_position_major : {false, true}) {
        SCOPED_TRACE(keys_position_major ? "keys position-major" : "keys row-major");
        const auto in = random_inputs(s, dtype, keys_position_major);
        const auto expected = reference(in);
        const double tolerance = dtype == torch::kDouble ? 1e-12 : 2e-6;
        ASSERT_TRUE(cached_attention_kernel_applies(in));
        const auto kernel = cached_attention_kernel(in), ops = cached_attention_ops(in);
        EXPECT_TRUE(kernel.is_contiguous() && ops.is_contiguous());
        EXPECT_LT(max_abs_diff(kernel, expected), tolerance);
        EXPECT_LT(max_abs_diff(ops, expected), tolerance);
        EXPECT_LT(max_abs_diff(cached_attention(in), expected), tolerance);
      }
    }
  }
}

TEST(CachedAttention, KernelIgnoresTheValuesOfPaddingAndFutureKeys) {
  torch::manual_seed(2);
  torch::NoGradGuard no_grad;
  for (const std::int64_t d : {8, 32, 40}) {
    auto in = random_inputs({2, 2, 4, 2, 3, 2, 5, d}, torch::kFloat);
    const auto expected = reference(in);
    in.prefix_v[0].narrow(1, 0, 2).fill_(NAN);  // prompt 0's two padding positions
    // The last new token's key: a future key for the two new tokens before it.
    in.sample_v.select(2, in.sample_v.size(2) - 1).fill_(NAN);
    auto kernel = cached_attention_kernel(in);
    // Only the last new token (which sees its own key) takes that NaN.
    EXPECT_TRUE(kernel.narrow(1, 2, 1).isnan().all().item<bool>()) << "D=" << d;
    EXPECT_LT(max_abs_diff(kernel.narrow(1, 0, 2), expected.narrow(1, 0, 2)), 2e-6) << "D=" << d;
  }
}

// Rows that hold different numbers of tokens (a jump-forward decode): each new token sees the
// number of its sample's keys that sample_visible gives, in the kernel and in the matmuls.
TEST(CachedAttention, RowsOfDifferentLengthsSeeTheirOwnKeys) {
  torch::manual_seed(3);
  for (const std::int64_t d : {8, 32}) {
    for (const auto dtype : {torch::kDouble, torch::kFloat}) {
      auto in = random_inputs({2, 3, 4, 2, 3, 4, 5, d}, dtype);  // 6 rows, 3 new tokens, L = 7
      // Per row: past tokens and new tokens taken (a padding position sees what the last real one does).
      const std::int64_t past[6] = {4, 0, 2, 3, 4, 1}, taken[6] = {3, 1, 0, 2, 3, 3};
      in.sample_visible = torch::empty({6, 3}, torch::kInt64);
      for (int r = 0; r < 6; ++r)
        for (int i = 0; i < 3; ++i) in.sample_visible[r][i] = past[r] + std::min<std::int64_t>(i + 1, taken[r]);
      const auto expected = reference(in);
      const double tolerance = dtype == torch::kDouble ? 1e-12 : 2e-6;
      {
        torch::NoGradGuard no_grad;
        EXPECT_LT(max_abs_diff(cached_attention_kernel(in), expected), tolerance) << "D=" << d;
      }
      EXPECT_LT(max_abs_diff(cached_attention_ops(in), expected), tolerance) << "D=" << d;
      // Keys a row does not see may hold anything.
      auto poisoned = in;
      poisoned.sample_v = in.sample_v.clone();
      poisoned.sample_v[1].narrow(1, 1, 6).fill_(NAN);  // row 1 holds one key
      torch::NoGradGuard no_grad;
      EXPECT_LT(max_abs_diff(cached_attention_kernel(poisoned)[1], expected[1]), tolerance) << "D=" << d;
    }
  }
}

// The padding tokens of a jump-forward decode (sample_tokens): the kernel skips them, and every real
// token's output is the one it has when the padding is computed, bit for bit. The queries of a row
// are tiled four at a time, so a real token's result must not depend on its neighbours.
TEST(CachedAttention, PaddingTokensAreSkippedAndChangeNoRealOutput) {
  torch::manual_seed(4);
  torch::NoGradGuard no_grad;
  for (const std::int64_t d : {8, 32, 40}) {
    for (const auto dtype : {torch::kDouble, torch::kFloat}) {
      // 6 rows, 5 new tokens, G = 2, L = 9; keys as a KvCache stores them, but for D = 8
      auto in = random_inputs({2, 3, 4, 2, 5, 4, 6, d}, dtype, /*keys_position_major=*/d != 8);
      const std::int64_t past[6] = {4, 0, 2, 3, 4, 1}, taken[6] = {5, 1, 0, 2, 3, 5};
      in.sample_visible = torch::empty({6, 5}, torch::kInt64);
      for (int r = 0; r < 6; ++r)
        for (int i = 0; i < 5; ++i) in.sample_visible[r][i] = past[r] + std::min<std::int64_t>(i + 1, taken[r]);
      const auto padded = cached_attention_kernel(in);
      in.sample_tokens = torch::tensor(std::vector<std::int64_t>(taken, taken + 6), torch::kInt64);
      in.q = in.q.clone();
      for (int r = 0; r < 6; ++r) in.q[r].narrow(0, taken[r], 5 - taken[r]).fill_(NAN);  // padding may hold anything
      const auto skipped = cached_attention_kernel(in);
      const auto expected = reference(in);
      const double tolerance = dtype == torch::kDouble ? 1e-12 : 2e-6;
      for (int r = 0; r < 6; ++r) {
        SCOPED_TRACE("D=" + std::to_string(d) + " row " + std::to_string(r));
        const auto real = skipped[r].narrow(0, 0, taken[r]);
        EXPECT_TRUE(torch::equal(real, padded[r].narrow(0, 0, taken[r])));
        if (taken[r] > 0) EXPECT_LT(max_abs_diff(real, expected[r].narrow(0, 0, taken[r])), tolerance);
        EXPECT_TRUE((skipped[r].narrow(0, taken[r], 5 - taken[r]) == 0).all().item<bool>());
      }
      in.sample_tokens = torch::tensor({5, 1, 0, 2, 3, 6}, torch::kInt64);  // more than the 5 new tokens
      EXPECT_THROW(cached_attention_kernel(in), Error);
    }
  }
}

TEST(CachedAttention, GradientsTakeTheMatmulPath) {
  torch::manual_seed(1);
  auto in = random_inputs({2, 2, 4, 2, 1, 3, 4}, torch::kDouble);
  in.q.requires_grad_(true);
  EXPECT_FALSE(cached_attention_kernel_applies(in));
  EXPECT_THROW(cached_attention_kernel(in), Error);
  cached_attention(in).sum().backward();
  ASSERT_TRUE(in.q.grad().defined());
  EXPECT_GT(in.q.grad().abs().sum().item<double>(), 0.0);
  {
    torch::NoGradGuard no_grad;  // without gradients wanted, the kernel applies again
    EXPECT_TRUE(cached_attention_kernel_applies(in));
  }
}

TEST(CachedAttention, InconsistentShapesAreRejected) {
  auto in = random_inputs({2, 2, 4, 2, 1, 3, 4}, torch::kFloat);
  in.samples = 3;  // 4 rows are not 2 prompts x 3 samples
  EXPECT_THROW(cached_attention(in), Error);
  in = random_inputs({2, 2, 4, 2, 1, 3, 4}, torch::kFloat);
  in.prefix_bias = torch::zeros({2, 3});
  EXPECT_THROW(cached_attention(in), Error);
  in = random_inputs({2, 2, 4, 2, 1, 3, 4}, torch::kFloat);
  in.sample_visible = torch::full({4, 1}, 5, torch::kInt64);  // more keys than the 4 given
  EXPECT_THROW(cached_attention(in), Error);
  in.sample_visible = torch::full({4, 2}, 1, torch::kInt64);  // two new tokens, not one
  EXPECT_THROW(cached_attention(in), Error);
}

}  // namespace
}  // namespace falcon::model
