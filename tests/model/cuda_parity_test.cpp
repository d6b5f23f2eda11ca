// The Transformer on CUDA against the same weights on the CPU: forward logits, every gradient of a
// cross-entropy loss, and the KV-cached prefill + decode. Skipped (and says so) without a CUDA
// device, which is every CI machine: these run where a GPU is lent.
//
// Tolerances, fp32 (TF32 matmuls stay off, PyTorch's default): logits within 1e-4 of the CPU's
// (absolute, logits of order 1); gradients within 1e-4 of the CPU's in relative L2 norm. bf16
// autocast on CUDA against fp32 on the CPU: logits within 5e-2 relative to their largest value.
#include <gtest/gtest.h>

#include "falcon/core/torch/shim.h"
#include "falcon/model/kv_cache.h"
#include "falcon/model/transformer.h"
#include "tests/model/model_test_util.h"

namespace falcon::model {
namespace {

ModelConfig parity_config() {
  ModelConfig c;
  c.vocab_size = 50;
  c.hidden_size = 64;
  c.intermediate_size = 96;
  c.num_hidden_layers = 2;
  c.num_attention_heads = 4;
  c.num_key_value_heads = 2;
  c.max_position_embeddings = 64;
  return c;
}

std::pair<CausalLm, CausalLm> cpu_and_cuda_models() {
  return testing::model_and_copy_on(parity_config(), torch::kCUDA, 7);
}

double max_abs_diff(const torch::Tensor& a, const torch::Tensor& b) {
  return (a.to(torch::kCPU, torch::kDouble) - b.to(torch::kCPU, torch::kDouble)).abs().max().item<double>();
}

#define SKIP_WITHOUT_CUDA() \
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device here: the CUDA parity tests run where a GPU is lent"

TEST(CudaParity, ForwardLogitsMatchTheCpu) {
  SKIP_WITHOUT_CUDA();
  auto [cpu, cuda] = cpu_and_cuda_models();
  torch::NoGradGuard no_grad;
  const auto ids = torch::randint(4, 50, {3, 24}, torch::kInt64);  // (B, T)
  const auto expected = cpu->forward(ids);                         // (B, T, V)
  const auto got = cuda->forward(ids.cuda());
  ASSERT_TRUE(got.is_cuda());
  EXPECT_GT(expected.abs().max().item<double>(), 0.5) << "logits too small for an absolute tolerance";
  EXPECT_LT(max_abs_diff(got, expected), 1e-4);
}

TEST(CudaParity, GradientsOfTheCrossEntropyMatchTheCpu) {
  SKIP_WITHOUT_CUDA();
  auto [cpu, cuda] = cpu_and_cuda_models();
  const auto ids = torch::randint(4, 50, {2, 16}, torch::kInt64);  // (B, T)
  auto loss_of = [&ids](CausalLm& lm, torch::Device device) {
    const auto x = ids.to(device);
    const auto logits = lm->forward(x.narrow(1, 0, 15));  // (B, T-1, V)
    return torch::nn::functional::cross_entropy(logits.reshape({-1, 50}), x.narrow(1, 1, 15).reshape({-1}));
  };
  const auto cpu_loss = loss_of(cpu, torch::kCPU);
  const auto cuda_loss = loss_of(cuda, torch::kCUDA);
  cpu_loss.backward();
  cuda_loss.backward();
  EXPECT_NEAR(cuda_loss.item<double>(), cpu_loss.item<double>(), 1e-5);
  auto expected = cpu->named_parameters();
  for (const auto& named : cuda->named_parameters()) {
    const auto& g_cpu = expected[named.key()].grad();
    const auto g_cuda = named.value().grad().cpu();
    const double relative = (g_cuda - g_cpu).norm().item<double>() / g_cpu.norm().item<double>();
    EXPECT_LT(relative, 1e-4) << named.key();
  }
}

TEST(CudaParity, CachedPrefillAndDecodeMatchTheCpu) {
  SKIP_WITHOUT_CUDA();
  auto [cpu, cuda] = cpu_and_cuda_models();
  torch::NoGradGuard no_grad;
  // Two prompts left-padded to 6 (the second is 4 long), 2 samples each, 3 decode steps of 1 token.
  const auto prompts = torch::tensor({{5, 6, 7, 8, 9, 10}, {0, 0, 11, 12, 13, 14}}, torch::kInt64);  // (B, P)
  const auto lengths = torch::tensor({6, 4}, torch::kInt64);                                          // (B,)
  KvCache cpu_cache, cuda_cache;
  const auto cpu_first = cpu->prefill(prompts, lengths, cpu_cache);  // (B, V)
  const auto cuda_first = cuda->prefill(prompts.cuda(), lengths.cuda(), cuda_cache);
  EXPECT_LT(max_abs_diff(cuda_first, cpu_first), 1e-4);
  cpu_cache.fork(2, 8);
  cuda_cache.fork(2, 8);
  for (int step = 0; step < 3; ++step) {
    const auto tokens = torch::randint(4, 50, {4, 1}, torch::kInt64);  // (B*N, 1)
    const auto expected = cpu->decode(tokens, cpu_cache);               // (B*N, 1, V)
    const auto got = cuda->decode(tokens.cuda(), cuda_cache);
    EXPECT_LT(max_abs_diff(got, expected), 1e-4) << "decode step " << step;
  }
}

TEST(CudaParity, Bf16AutocastStaysCloseToFp32OnTheCpu) {
  SKIP_WITHOUT_CUDA();
  auto [cpu, cuda] = cpu_and_cuda_models();
  torch::NoGradGuard no_grad;
  cuda->set_autocast(torch::kBFloat16);
  const auto ids = torch::randint(4, 50, {2, 24}, torch::kInt64);  // (B, T)
  const auto expected = cpu->forward(ids);                         // (B, T, V)
  const auto got = cuda->forward(ids.cuda());
  EXPECT_LT(max_abs_diff(got, expected) / expected.abs().max().item<double>(), 5e-2);
}

}  // namespace
}  // namespace falcon::model
