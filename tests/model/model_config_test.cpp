#include "falcon/model/config/model_config.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "falcon/core/config.h"
#include "falcon/model/hf_checkpoint.h"
#include "falcon/model/config/model_presets.h"
#include "model_test_util.h"

namespace falcon::model {
namespace {

using testing::expect_error;

// TinyLlama-1.1B's config.json (transformers 4.35 layout).
constexpr const char* kTinyLlamaJson = R"({
  "architectures": ["LlamaForCausalLM"], "attention_bias": false, "bos_token_id": 1, "eos_token_id": 2,
  "hidden_act": "silu", "hidden_size": 2048, "initializer_range": 0.02, "intermediate_size": 5632,
  "max_position_embeddings": 2048, "model_type": "llama", "num_attention_heads": 32,
  "num_hidden_layers": 22, "num_key_value_heads": 4, "pretraining_tp": 1, "rms_norm_eps": 1e-05,
  "rope_scaling": null, "rope_theta": 10000.0, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
  "transformers_version": "4.35.0", "use_cache": true, "vocab_size": 32000
})";

// Qwen2-0.5B's config.json.
constexpr const char* kQwen2Json = R"({
  "architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 151643,
  "eos_token_id": 151643, "hidden_act": "silu", "hidden_size": 896, "initializer_range": 0.02,
  "intermediate_size": 4864, "max_position_embeddings": 131072, "max_window_layers": 24,
  "model_type": "qwen2", "num_attention_heads": 14, "num_hidden_layers": 24, "num_key_value_heads": 2,
  "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "sliding_window": 131072, "tie_word_embeddings": true,
  "torch_dtype": "bfloat16", "transformers_version": "4.40.1", "use_cache": true,
  "use_sliding_window": false, "vocab_size": 151936
})";

// kTinyLlamaJson with `field` replaced by `value` (JSON text), or removed when value is empty.
std::string tinyllama_with(const std::string& field, const std::string& value) {
  auto j = nlohmann::json::parse(kTinyLlamaJson);
  if (value.empty()) j.erase(field);
  else j[field] = nlohmann::json::parse(value);
  return j.dump();
}

void expect_same(const ModelConfig& a, const ModelConfig& b) {
  EXPECT_EQ(a.vocab_size, b.vocab_size);
  EXPECT_EQ(a.hidden_size, b.hidden_size);
  EXPECT_EQ(a.intermediate_size, b.intermediate_size);
  EXPECT_EQ(a.num_hidden_layers, b.num_hidden_layers);
  EXPECT_EQ(a.num_attention_heads, b.num_attention_heads);
  EXPECT_EQ(a.num_key_value_heads, b.num_key_value_heads);
  EXPECT_EQ(a.max_position_embeddings, b.max_position_embeddings);
  EXPECT_EQ(a.rope_theta, b.rope_theta);
  EXPECT_EQ(a.rms_norm_eps, b.rms_norm_eps);
  EXPECT_EQ(a.tie_word_embeddings, b.tie_word_embeddings);
  EXPECT_EQ(a.attention_bias, b.attention_bias);
  EXPECT_EQ(a.torch_dtype, b.torch_dtype);
}

TEST(ModelConfig, ParameterCountsOfKnownModels) {
  // The published sizes: TinyLlama 1,100,048,384; Qwen2-0.5B 494,032,768; Llama-3-8B 8,030,261,248;
  // Qwen2.5-7B 7,615,616,512.
  EXPECT_EQ(model_preset("llama_1b").parameter_count(), 1100048384);
  EXPECT_EQ(model_preset("qwen2_0.5b").parameter_count(), 494032768);
  EXPECT_EQ(model_preset("qwen2.5_7b").parameter_count(), 7615616512);  // Qwen2.5-7B, the paper's base model
  EXPECT_EQ(model_preset("llama3_8b").parameter_count(), 8030261248);
}

TEST(ModelConfig, ParameterCountIsTheSumOfTheCheckpointShapes) {
  for (const auto& name : model_preset_names()) {
    if (name != "tiny" && name != "cpu_small" && name != "qwen2_0.5b") continue;  // small enough to list
    const ModelConfig c = model_preset(name);
    std::int64_t total = 0;
    for (const auto& [tensor, shape] : hf_parameter_shapes(c)) {
      std::int64_t n = 1;
      for (auto d : shape) n *= d;
      total += n;
    }
    EXPECT_EQ(total, c.parameter_count()) << name;
  }
}

TEST(ModelConfig, TrainingFlopsCountEveryMatmulOnce) {
  ModelConfig c = model_preset("tiny");
  const double v_h = static_cast<double>(c.vocab_size * c.hidden_size);
  const double attention = 12.0 * c.num_hidden_layers * 128 * c.hidden_size;
  EXPECT_DOUBLE_EQ(c.training_flops_per_token(128), 6.0 * (c.parameter_count() - v_h) + attention);
  c.tie_word_embeddings = true;  // the embedding is counted once, as the output projection
  EXPECT_DOUBLE_EQ(c.training_flops_per_token(128), 6.0 * c.parameter_count() + attention);
}

TEST(ModelConfig, ValidateNamesThePlaceAndTheField) {
  ModelConfig c;
  c.num_attention_heads = 7;
  expect_error([&] { c.validate("run.yaml section 'model'"); }, {"run.yaml section 'model'", "num_attention_heads", "256"});
  c = ModelConfig();
  c.num_key_value_heads = 3;
  expect_error([&] { c.validate("x"); }, {"num_key_value_heads", "divide"});
  c = ModelConfig();
  c.hidden_size = 24;
  c.num_attention_heads = 8;  // head_dim 3
  expect_error([&] { c.validate("x"); }, {"head_dim", "odd"});
  c = ModelConfig();
  c.vocab_size = 0;
  expect_error([&] { c.validate("x"); }, {"vocab_size", "positive"});
  c = ModelConfig();
  c.torch_dtype = "float64";
  expect_error([&] { c.validate("x"); }, {"torch_dtype", "float64"});
  c = ModelConfig();
  c.rms_norm_eps = 0;
  expect_error([&] { c.validate("x"); }, {"rms_norm_eps"});
}

TEST(ModelConfig, YamlSectionWithDefaultsRecordedInTheResolvedConfig) {
  Config config = Config::from_string("model:\n  hidden_size: 128\n  num_attention_heads: 4\n", "<test>");
  const ModelConfig m = model_config_from_yaml(config, "model");
  EXPECT_EQ(m.hidden_size, 128);
  EXPECT_EQ(m.num_attention_heads, 4);
  EXPECT_EQ(m.num_key_value_heads, 4);  // follows the heads, as in HF
  EXPECT_EQ(m.vocab_size, ModelConfig().vocab_size);
  config.check_unused();
  const std::string resolved = config.to_yaml();
  EXPECT_NE(resolved.find("vocab_size: 2000"), std::string::npos) << resolved;
  EXPECT_NE(resolved.find("torch_dtype: float32"), std::string::npos) << resolved;

  Config bad = Config::from_string("model:\n  hidden_size: 100\n  num_attention_heads: 8\n", "run.yaml");
  expect_error([&] { model_config_from_yaml(bad, "model"); }, {"run.yaml section 'model'", "num_attention_heads"});
  Config wrong_type = Config::from_string("model:\n  hidden_size: big\n", "run.yaml");
  expect_error([&] { model_config_from_yaml(wrong_type, "model"); }, {"run.yaml:2", "model.hidden_size"});
}

TEST(ModelConfig, PresetsAreCompiledInAndValid) {
  const std::vector<std::string> expected = {"cpu_small", "llama3_8b", "llama_1b", "qwen2.5_7b", "qwen2_0.5b", "tiny"};
  EXPECT_EQ(model_preset_names(), expected);
  for (const auto& name : expected) EXPECT_NO_THROW(model_preset(name)) << name;
  const ModelConfig tiny = model_preset("tiny");
  EXPECT_EQ(tiny.hidden_size, 64);
  EXPECT_EQ(tiny.num_hidden_layers, 2);
  EXPECT_EQ(tiny.num_attention_heads, 4);
  EXPECT_EQ(tiny.num_key_value_heads, 2);
  EXPECT_EQ(tiny.intermediate_size, 176);
  const ModelConfig qwen = model_preset("qwen2_0.5b");
  EXPECT_TRUE(qwen.tie_word_embeddings);
  EXPECT_TRUE(qwen.attention_bias);
  // The CPU default is ModelConfig's own default, so code that builds ModelConfig{} gets it.
  expect_same(model_preset("cpu_small"), ModelConfig());
}

TEST(ModelConfig, SectionStartsFromAPresetAndOverridesIt) {
  Config config = Config::from_string("model:\n  preset: tiny\n  num_hidden_layers: 3\n", "run.yaml");
  const ModelConfig m = resolve_model_section(config, "model");
  ModelConfig expected = model_preset("tiny");
  expected.num_hidden_layers = 3;
  expect_same(m, expected);
  config.check_unused();
  // The resolved config spells out every setting, so it rebuilds the same model without presets.
  Config again = Config::from_string(config.to_yaml(), "resolved.yaml");
  expect_same(resolve_model_section(again, "model"), expected);

  Config typo = Config::from_string("model:\n  preset: tiny\n  hiden_size: 3\n", "run.yaml");
  resolve_model_section(typo, "model");
  expect_error([&] { typo.check_unused(); }, {"model.hiden_size", "hidden_size"});

  Config unknown = Config::from_string("model:\n  preset: huge\n", "run.yaml");
  expect_error([&] { resolve_model_section(unknown, "model"); },
               {"run.yaml", "model.preset", "'huge'", "cpu_small, llama3_8b, llama_1b, qwen2.5_7b, qwen2_0.5b, tiny"});
}

class ModelPresetFile : public testing::TempDirTest {};

TEST_F(ModelPresetFile, PresetMayBeAPathToAYamlFile) {
  testing::write_text(path("mine.yaml"), "hidden_size: 32\nnum_attention_heads: 2\nnum_hidden_layers: 1\n");
  Config config = Config::from_string("model:\n  preset: " + path("mine.yaml") + "\n", "run.yaml");
  const ModelConfig m = resolve_model_section(config, "model");
  EXPECT_EQ(m.hidden_size, 32);
  EXPECT_EQ(m.num_key_value_heads, 2);
  testing::write_text(path("typo.yaml"), "hidden_sise: 32\n");
  Config typo = Config::from_string("model:\n  preset: " + path("typo.yaml") + "\n", "run.yaml");
  expect_error([&] { resolve_model_section(typo, "model"); }, {"model.preset", "typo.yaml", "hidden_sise"});
}

TEST(HfConfig, ReadsLlama) {
  const ModelConfig c = model_config_from_hf_json_text(kTinyLlamaJson, "tinyllama/config.json");
  expect_same(c, model_preset("llama_1b"));
}

TEST(HfConfig, ReadsQwen2WithBiasAndTiedEmbeddings) {
  const ModelConfig c = model_config_from_hf_json_text(kQwen2Json, "qwen/config.json");
  EXPECT_TRUE(c.attention_bias);
  EXPECT_TRUE(c.tie_word_embeddings);
  EXPECT_EQ(c.num_key_value_heads, 2);
  EXPECT_EQ(c.rope_theta, 1e6);
  EXPECT_EQ(c.rms_norm_eps, 1e-6);
  EXPECT_EQ(c.max_position_embeddings, 131072);
  EXPECT_EQ(c.vocab_size, 151936);
  EXPECT_EQ(c.torch_dtype, "bfloat16");
}

TEST(HfConfig, DefaultsOfOptionalFields) {
  const std::string minimal = R"({"architectures": ["LlamaForCausalLM"], "vocab_size": 100, "hidden_size": 64,
      "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4})";
  const ModelConfig c = model_config_from_hf_json_text(minimal, "m.json");
  EXPECT_EQ(c.num_key_value_heads, 4);
  EXPECT_EQ(c.rope_theta, 10000.0);
  EXPECT_FALSE(c.tie_word_embeddings);
  EXPECT_FALSE(c.attention_bias);
  EXPECT_EQ(c.torch_dtype, "float32");
  // Newer transformers write "dtype"; model_type alone names the architecture.
  const ModelConfig d = model_config_from_hf_json_text(
      R"({"model_type": "mistral", "vocab_size": 100, "hidden_size": 64, "intermediate_size": 128,
          "num_hidden_layers": 2, "num_attention_heads": 4, "sliding_window": null, "dtype": "bfloat16"})",
      "m.json");
  EXPECT_EQ(d.torch_dtype, "bfloat16");
}

// transformers >= 5 moves rope_theta into "rope_parameters" (Qwen2's 1e6 must not fall back to
// the 10000 default); a scaled rope_type or two disagreeing values are refused by name.
TEST(HfConfig, ReadsRopeParametersOfNewerTransformers) {
  const std::string src = "qwen/config.json";
  auto j = nlohmann::json::parse(kTinyLlamaJson);
  j.erase("rope_theta");
  j["rope_parameters"] = {{"rope_theta", 1000000.0}, {"rope_type", "default"}};
  EXPECT_EQ(model_config_from_hf_json_text(j.dump(), src).rope_theta, 1e6);
  auto parse = [&](const std::string& text) { return [text, src] { model_config_from_hf_json_text(text, src); }; };
  expect_error(parse(tinyllama_with("rope_parameters", R"({"rope_theta": 10000.0, "rope_type": "yarn"})")),
               {src, "'rope_parameters'", "yarn", "not supported"});
  expect_error(parse(tinyllama_with("rope_parameters", R"({"rope_theta": 500000.0})")),
               {src, "'rope_theta'", "disagrees"});
  expect_error(parse(tinyllama_with("rope_parameters", "[1]")), {src, "'rope_parameters'", "object"});
}

TEST(HfConfig, RejectsWhatTheDecoderDoesNotImplement) {
  const std::string src = "ckpt/config.json";
  auto parse = [&](const std::string& text) { return [text, src] { model_config_from_hf_json_text(text, src); }; };
  expect_error(parse(tinyllama_with("rope_scaling", R"({"type": "linear", "factor": 2.0})")),
               {src, "'rope_scaling'", "linear"});
  expect_error(parse(tinyllama_with("head_dim", "128")), {src, "'head_dim'", "2048 / 32"});
  EXPECT_NO_THROW(parse(tinyllama_with("head_dim", "64"))());
  expect_error(parse(tinyllama_with("hidden_act", R"("gelu")")), {src, "'hidden_act'", "silu"});
  expect_error(parse(tinyllama_with("architectures", R"(["GPT2LMHeadModel"])")), {src, "'architectures'", "GPT2LMHeadModel"});
  expect_error(parse(tinyllama_with("vocab_size", "")), {src, "'vocab_size'", "missing"});
  expect_error(parse(tinyllama_with("vocab_size", R"("32000")")), {src, "'vocab_size'", "integer"});
  expect_error(parse(tinyllama_with("num_key_value_heads", "5")), {src, "num_key_value_heads"});
  expect_error(parse(tinyllama_with("attention_bias", "true")), {src, "'attention_bias'", "o_proj"});
  expect_error(parse(tinyllama_with("torch_dtype", R"("int8")")), {src, "'torch_dtype'"});
  expect_error(parse("{\"vocab_size\": 1,"), {src, "not valid JSON"});
  expect_error(parse(R"({"vocab_size": 1, "vocab_size": 2})"), {src, "vocab_size", "twice"});
  std::string mistral = tinyllama_with("architectures", R"(["MistralForCausalLM"])");
  EXPECT_NO_THROW(parse(mistral)());  // no sliding_window field: none
  auto j = nlohmann::json::parse(mistral);
  j["sliding_window"] = 1024;
  expect_error(parse(j.dump()), {src, "'sliding_window'", "2048"});
  j["sliding_window"] = 4096;  // never reached within max_position_embeddings
  EXPECT_NO_THROW(parse(j.dump())());
  auto q = nlohmann::json::parse(kQwen2Json);
  q["use_sliding_window"] = true;
  expect_error(parse(q.dump()), {src, "'use_sliding_window'"});
}

TEST(HfConfig, WrittenConfigReadsBack) {
  for (const auto& name : model_preset_names()) {
    const ModelConfig c = model_preset(name);
    const std::string text = model_config_to_hf_json(c);
    expect_same(model_config_from_hf_json_text(text, name), c);
    const auto j = nlohmann::json::parse(text);
    EXPECT_EQ(j["architectures"][0], c.attention_bias ? "Qwen2ForCausalLM" : "LlamaForCausalLM") << name;
    EXPECT_TRUE(j["rope_scaling"].is_null());
    EXPECT_EQ(j["hidden_act"], "silu");
  }
}

TEST(HfConfig, MissingFileIsNamed) {
  expect_error([] { model_config_from_hf_json("/nonexistent/dir/config.json"); }, {"/nonexistent/dir/config.json"});
}

}  // namespace
}  // namespace falcon::model
