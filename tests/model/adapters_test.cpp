#include "falcon/model/adapters.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "falcon/model/state_dict.h"
#include "falcon/model/transformer.h"
#include "model_test_util.h"

namespace falcon::model {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::expect_error;
using testing::read_text;
using testing::small_model_config;
using testing::write_text;

LoraConfig lora_config() {
  LoraConfig l;
  l.rank = 4;
  l.alpha = 8;
  l.dropout = 0.05;
  l.target_modules = {"q_proj", "v_proj", "down_proj"};
  return l;
}

// A model with adapters whose B is not zero, so a wrong load changes the logits.
CausalLm adapted_model(std::uint64_t seed) {
  torch::manual_seed(seed);
  CausalLm model(small_model_config());
  model->add_lora(lora_config());
  torch::NoGradGuard no_grad;
  for (auto& [name, t] : model->named_lora_parameters()) t.normal_(0.0, 0.1);
  return model;
}

class AdaptersTest : public testing::TempDirTest {};

TEST_F(AdaptersTest, RoundTripInPeftLayout) {
  CausalLm source = adapted_model(1);
  AdapterSaveOptions options;
  options.base_model_name_or_path = "TinyLlama/TinyLlama-1.1B";
  save_adapters(path("adapter"), source->named_lora_parameters(), lora_config(), options);

  // PEFT's names: base_model.model.<module>.lora_{A,B}.weight, shapes [r, in] and [out, r].
  const TensorMap file = read_safetensors(path("adapter/adapter_model.safetensors"));
  EXPECT_EQ(file.size(), 2u * 3u * 2u);  // layers x targets x {A, B}
  EXPECT_EQ(file.at("base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight").sizes(), torch::IntArrayRef({4, 16}));
  EXPECT_EQ(file.at("base_model.model.model.layers.1.self_attn.v_proj.lora_B.weight").sizes(), torch::IntArrayRef({8, 4}));
  EXPECT_EQ(file.at("base_model.model.model.layers.1.mlp.down_proj.lora_A.weight").sizes(), torch::IntArrayRef({4, 24}));
  const json config = json::parse(read_text(path("adapter/adapter_config.json")));
  EXPECT_EQ(config["peft_type"], "LORA");
  EXPECT_EQ(config["task_type"], "CAUSAL_LM");
  EXPECT_EQ(config["r"], 4);
  EXPECT_EQ(config["lora_alpha"], 8.0);
  EXPECT_EQ(config["lora_dropout"], 0.05);
  EXPECT_EQ(config["target_modules"], json({"q_proj", "v_proj", "down_proj"}));
  EXPECT_EQ(config["bias"], "none");
  EXPECT_EQ(config["fan_in_fan_out"], false);
  EXPECT_EQ(config["base_model_name_or_path"], "TinyLlama/TinyLlama-1.1B");
  EXPECT_EQ(config["inference_mode"], true);

  CausalLm target = adapted_model(2);
  load_state_dict(*target, state_dict(*source), {});  // same base, different adapters
  torch::NoGradGuard no_grad;
  for (auto& [name, t] : target->named_lora_parameters()) t.zero_();
  load_adapters(path("adapter"), target->named_lora_parameters(), lora_config());
  for (const auto& [name, t] : target->named_lora_parameters())
    EXPECT_TRUE(torch::equal(t, file.at(kPeftPrefix + name))) << name;
  source->eval();
  target->eval();
  const auto ids = torch::tensor({{3, 1, 4, 1, 5}}, torch::kInt64);
  EXPECT_TRUE(torch::equal(source->forward(ids), target->forward(ids)));

  const PeftAdapter read = read_adapters(path("adapter"));
  EXPECT_EQ(read.config.rank, 4);
  EXPECT_EQ(read.base_model_name_or_path, "TinyLlama/TinyLlama-1.1B");
  EXPECT_EQ(read.tensors.size(), file.size());
}

TEST_F(AdaptersTest, LoadChecksTheModelsLoraConfigAndShapes) {
  CausalLm model = adapted_model(1);
  save_adapters(path("a"), model->named_lora_parameters(), lora_config());
  const std::string config_file = path("a/adapter_config.json");
  LoraConfig other = lora_config();
  other.rank = 8;
  expect_error([&] { load_adapters(path("a"), model->named_lora_parameters(), other); }, {config_file, "'r' = 4", "8"});
  other = lora_config();
  other.alpha = 16;
  expect_error([&] { load_adapters(path("a"), model->named_lora_parameters(), other); }, {config_file, "lora_alpha"});
  other = lora_config();
  other.target_modules = {"q_proj", "v_proj"};
  expect_error([&] { load_adapters(path("a"), model->named_lora_parameters(), other); },
               {config_file, "target_modules", "down_proj"});

  TensorMap file = read_safetensors(path("a/adapter_model.safetensors"));
  file["base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight"] = torch::zeros({4, 15});
  file.erase("base_model.model.model.layers.1.mlp.down_proj.lora_B.weight");
  write_safetensors(path("a/adapter_model.safetensors"), file);
  expect_error([&] { load_adapters(path("a"), model->named_lora_parameters(), lora_config()); },
               {"adapter_model.safetensors", "model.layers.1.mlp.down_proj.lora_B.weight",
                "model.layers.0.self_attn.q_proj.lora_A.weight: expected [4, 16], got [4, 15]"});

  file.emplace("model.layers.0.mlp.up_proj.lora_A.weight", torch::zeros({4, 16}));  // no PEFT prefix
  write_safetensors(path("a/adapter_model.safetensors"), file);
  expect_error([&] { read_adapters(path("a")); }, {"model.layers.0.mlp.up_proj.lora_A.weight", "base_model.model."});
}

TEST_F(AdaptersTest, PeftOptionsThisLoraLacksAreRejected) {
  CausalLm model = adapted_model(1);
  save_adapters(path("a"), model->named_lora_parameters(), lora_config());
  const std::string file = path("a/adapter_config.json");
  const json original = json::parse(read_text(file));
  auto expect_field_rejected = [&](const std::string& field, const json& value) {
    json c = original;
    c[field] = value;
    write_text(file, c.dump());
    expect_error([&] { read_adapters(path("a")); }, {file, "'" + field + "'"});
  };
  expect_field_rejected("use_rslora", true);
  expect_field_rejected("use_dora", true);
  expect_field_rejected("bias", "all");
  expect_field_rejected("fan_in_fan_out", true);
  expect_field_rejected("target_modules", ".*proj");
  expect_field_rejected("modules_to_save", json({"lm_head"}));
  expect_field_rejected("rank_pattern", json({{"q_proj", 8}}));
  expect_field_rejected("peft_type", "PREFIX_TUNING");
  expect_field_rejected("r", 0);
  json c = original;
  c["rank_pattern"] = json::object();  // PEFT writes empty patterns: fine
  c["layers_to_transform"] = nullptr;
  write_text(file, c.dump());
  EXPECT_NO_THROW(read_adapters(path("a")));
  fs::remove(path("a/adapter_model.safetensors"));
  expect_error([&] { read_adapters(path("a")); }, {"adapter_model.safetensors"});
}

TEST_F(AdaptersTest, SaveRejectsTensorsThatAreNotAdapters) {
  const LoraConfig l = lora_config();
  expect_error([&] { save_adapters(path("a"), {{"model.norm.weight", torch::zeros({16})}}, l); },
               {"model.norm.weight", "not a LoRA parameter"});
  expect_error([&] { save_adapters(path("a"), {{"m.gate_proj.lora_A.weight", torch::zeros({4, 16})}}, l); },
               {"gate_proj", "target_modules"});
  expect_error([&] { save_adapters(path("a"), {{"m.q_proj.lora_B.weight", torch::zeros({16, 3})}}, l); },
               {"m.q_proj.lora_B.weight", "[16, 3]", "rank 4"});
  EXPECT_FALSE(fs::exists(path("a/adapter_model.safetensors")));
}

}  // namespace
}  // namespace falcon::model
