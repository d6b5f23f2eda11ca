// Hugging Face's own logits for tiny random LlamaForCausalLM and Qwen2ForCausalLM checkpoints
// (tests/fixtures/hf, made by tools/make_hf_fixtures.py with transformers 5.17 and torch 2.11): the
// same files loaded with falcon/model give the same logits. fp32 on both sides; the bound, 1e-4
// against logits of order 1, leaves room for a different matmul order and nothing more: a wrong
// RoPE base, bias, norm epsilon or tied head moves logits by far more.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "falcon/model/hf_checkpoint.h"
#include "falcon/model/state_dict.h"
#include "falcon/model/transformer.h"

namespace falcon::model {
namespace {

struct Reference {
  torch::Tensor input_ids;  // (B, T) int64
  torch::Tensor logits;     // (B, T, V) float32
  std::string transformers_version;
};

Reference read_reference(const std::string& path) {
  std::ifstream in(path);
  const auto j = nlohmann::json::parse(in);
  Reference r;
  const auto ids = j.at("input_ids").get<std::vector<std::vector<std::int64_t>>>();
  const auto logits = j.at("logits").get<std::vector<std::vector<std::vector<float>>>>();
  const auto b = static_cast<std::int64_t>(ids.size()), t = static_cast<std::int64_t>(ids[0].size());
  const auto v = static_cast<std::int64_t>(logits[0][0].size());
  r.input_ids = torch::empty({b, t}, torch::kInt64);
  r.logits = torch::empty({b, t, v}, torch::kFloat);
  for (std::int64_t i = 0; i < b; ++i)
    for (std::int64_t k = 0; k < t; ++k) {
      r.input_ids[i][k] = ids[i][k];
      r.logits[i][k] = torch::tensor(logits[i][k]);
    }
  r.transformers_version = j.at("transformers").get<std::string>();
  return r;
}

class HfParity : public ::testing::TestWithParam<std::string> {};

TEST_P(HfParity, LogitsMatchTransformers) {
  const std::string dir = std::string(FALCON_FIXTURES_DIR) + "/hf/" + GetParam();
  const HfCheckpoint hf = read_hf_checkpoint(dir);
  CausalLm lm(hf.config);
  load_state_dict(*lm, hf.weights, {});
  lm->eval();
  const Reference ref = read_reference(dir + "/reference_logits.json");
  torch::NoGradGuard no_grad;
  const auto logits = lm->forward(ref.input_ids);  // (B, T, V)
  ASSERT_EQ(logits.sizes(), ref.logits.sizes());
  const double diff = (logits - ref.logits).abs().max().item<double>();
  const double scale = ref.logits.abs().max().item<double>();
  std::printf("%s against transformers %s: max |logit difference| = %.3g (largest |logit| %.3g)\n",
              GetParam().c_str(), ref.transformers_version.c_str(), diff, scale);
  EXPECT_GT(scale, 1.0) << "reference logits too small for the bound to mean anything";
  EXPECT_LT(diff, 1e-4);
}

INSTANTIATE_TEST_SUITE_P(TinyModels, HfParity, ::testing::Values("tiny_llama", "tiny_qwen2"));

}  // namespace
}  // namespace falcon::model
