#include "falcon/core/torch/runtime.h"

#include <gtest/gtest.h>

#include <thread>

#include "falcon/core/torch/shim.h"

namespace falcon {
namespace {

TEST(TorchRuntime, AutoThreadsUseTheFreeCoresAndFixedThreadsAreKept) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const TorchRuntimeInfo info = init_torch_runtime();  // as many as other processes leave free
  EXPECT_GE(info.intra_op_threads, 1);
  EXPECT_LE(info.intra_op_threads, cores);
  EXPECT_FALSE(info.torch_version.empty());
  EXPECT_EQ(init_torch_runtime(1).intra_op_threads, 1);
  ThreadsFollowLoad fixed(/*enabled=*/false);
  EXPECT_FALSE(fixed.update().has_value());
  EXPECT_EQ(at::get_num_threads(), 1);
}

TEST(TorchShim, AttentionMatchesExplicitFormula) {
  torch::manual_seed(0);
  const auto q = torch::randn({2, 3, 5, 8}), k = torch::randn({2, 3, 5, 8}), v = torch::randn({2, 3, 5, 8});
  const auto out = torch_shim::scaled_dot_product_attention(q, k, v, torch::Tensor(), /*causal=*/true);
  auto scores = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(8.0);  // (2, 3, 5, 5)
  scores = scores.masked_fill(torch::ones({5, 5}, torch::kBool).triu(1), -INFINITY);
  const auto expected = torch::matmul(torch::softmax(scores, -1), v);
  const double max_diff = (out - expected).abs().max().item<double>();
  EXPECT_LT(max_diff, 1e-5) << "largest difference " << max_diff;
}

}  // namespace
}  // namespace falcon
