// The decoder and the Hugging Face checkpoint layout agree: names, shapes, and logits after a
// write / read / load round trip.
#include <gtest/gtest.h>

#include <cstdio>

#include "falcon/model/hf_checkpoint.h"
#include "falcon/model/config/model_presets.h"
#include "falcon/model/state_dict.h"
#include "falcon/model/transformer.h"
#include "model_test_util.h"

namespace falcon::model {
namespace {

std::vector<ModelConfig> variants() {
  ModelConfig plain = model_preset("tiny");
  ModelConfig qwen_like = plain;  // tied embeddings and q/k/v biases, like Qwen2
  qwen_like.tie_word_embeddings = true;
  qwen_like.attention_bias = true;
  return {plain, qwen_like};
}

TEST(HfCausalLm, NamedParametersAreTheHfCheckpointKeys) {
  for (const ModelConfig& c : variants()) {
    CausalLm model(c);
    std::map<std::string, std::vector<std::int64_t>> names;
    for (const auto& item : model->named_parameters()) names.emplace(item.key(), item.value().sizes().vec());
    EXPECT_EQ(names, hf_parameter_shapes(c)) << "tied " << c.tie_word_embeddings << ", bias " << c.attention_bias;
    EXPECT_TRUE(model->named_buffers().is_empty());
  }
}

class HfCausalLmRoundTrip : public testing::TempDirTest {};

TEST_F(HfCausalLmRoundTrip, WrittenAndReloadedModelGivesIdenticalLogits) {
  int variant = 0;
  for (const ModelConfig& c : variants()) {
    torch::manual_seed(5 + variant);
    CausalLm written(c);
    const std::string dir = path("hf_" + std::to_string(variant));
    HfWriteOptions options;
    options.max_shard_bytes = variant == 0 ? 0 : 200000;  // one file, then shards
    write_hf_checkpoint(dir, c, state_dict(*written), options);

    torch::manual_seed(100 + variant);  // different initial weights
    const HfCheckpoint hf = read_hf_checkpoint(dir);
    CausalLm loaded(hf.config);
    load_state_dict(*loaded, hf.weights, {});

    written->eval();
    loaded->eval();
    torch::NoGradGuard no_grad;
    const auto ids = torch::randint(0, c.vocab_size, {3, 17}, torch::kInt64);  // (B, T)
    const auto a = written->forward(ids), b = loaded->forward(ids);          // (B, T, V)
    const double diff = (a - b).abs().max().item<double>();
    std::printf("HF round trip (tied %d, bias %d, %s): max |logits difference| = %g\n", c.tie_word_embeddings,
                c.attention_bias, variant == 0 ? "one file" : "sharded", diff);
    EXPECT_EQ(diff, 0.0);
    EXPECT_TRUE(torch::equal(a, b));
    ++variant;
  }
}

TEST_F(HfCausalLmRoundTrip, Bfloat16CheckpointLoadsIntoAFloat32Model) {
  const ModelConfig c = model_preset("tiny");
  torch::manual_seed(5);
  CausalLm written(c);
  TensorMap bf16;
  for (const auto& [name, t] : state_dict(*written)) bf16.emplace(name, t.to(torch::kBFloat16));
  ModelConfig stored = c;
  stored.torch_dtype = "bfloat16";
  write_hf_checkpoint(path("bf16"), stored, bf16);
  const HfCheckpoint hf = read_hf_checkpoint(path("bf16"));
  EXPECT_EQ(hf.config.torch_dtype, "bfloat16");
  CausalLm loaded(hf.config);
  load_state_dict(*loaded, hf.weights, {});
  for (const auto& [name, t] : state_dict(*loaded)) {
    EXPECT_EQ(t.scalar_type(), torch::kFloat32) << name;
    EXPECT_TRUE(torch::equal(t, bf16.at(name).to(torch::kFloat32))) << name;
  }
}

}  // namespace
}  // namespace falcon::model
