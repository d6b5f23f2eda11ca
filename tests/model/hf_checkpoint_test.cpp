#include "falcon/model/hf_checkpoint.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model_test_util.h"

namespace falcon::model {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::expect_error;
using testing::read_text;
using testing::small_model_config;
using testing::write_text;

TensorMap random_weights(const ModelConfig& c, torch::ScalarType dtype = torch::kFloat32) {
  torch::manual_seed(7);
  TensorMap w;
  for (const auto& [name, shape] : hf_parameter_shapes(c)) w.emplace(name, torch::randn(shape).to(dtype));
  return w;
}

void expect_equal_maps(const TensorMap& a, const TensorMap& b) {
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [name, t] : a) {
    ASSERT_TRUE(b.count(name)) << name;
    EXPECT_EQ(t.scalar_type(), b.at(name).scalar_type()) << name;
    EXPECT_TRUE(torch::equal(t, b.at(name))) << name;
  }
}

class HfCheckpointTest : public testing::TempDirTest {
 protected:
  // A checkpoint of small_model_config() in shards of ~4 KB (several shards); returns its directory.
  std::string sharded() {
    const std::string dir = path("sharded");
    HfWriteOptions o;
    o.max_shard_bytes = 4096;
    write_hf_checkpoint(dir, small_model_config(), random_weights(small_model_config()), o);
    return dir;
  }
  json index_of(const std::string& dir) { return json::parse(read_text(dir + "/model.safetensors.index.json")); }
  void set_index(const std::string& dir, const json& index) {
    write_text(dir + "/model.safetensors.index.json", index.dump(2));
  }
};

TEST_F(HfCheckpointTest, SingleFileRoundTrip) {
  const ModelConfig c = small_model_config();
  const TensorMap w = random_weights(c);
  const std::string dir = path("ckpt");
  write_hf_checkpoint(dir + "/", c, w);
  EXPECT_TRUE(fs::exists(dir + "/config.json"));
  EXPECT_TRUE(fs::exists(dir + "/model.safetensors"));
  EXPECT_FALSE(fs::exists(dir + "/model.safetensors.index.json"));
  EXPECT_EQ(read_safetensors_metadata(dir + "/model.safetensors").at("format"), "pt");  // transformers needs it
  for (const auto& entry : fs::directory_iterator(dir_))  // the temporary directory was renamed away
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();

  const HfCheckpoint back = read_hf_checkpoint(dir);
  EXPECT_EQ(model_config_to_hf_json(back.config), model_config_to_hf_json(c));
  expect_equal_maps(back.weights, w);
  EXPECT_EQ(back.tokenizer_model_path, "");
}

TEST_F(HfCheckpointTest, ShardedRoundTripWithTokenizer) {
  const ModelConfig c = small_model_config();
  const TensorMap w = random_weights(c, torch::kBFloat16);
  write_text(path("tok.model"), "sentencepiece bytes");
  HfWriteOptions o;
  o.max_shard_bytes = 2048;
  o.tokenizer_model = path("tok.model");
  const std::string dir = path("ckpt");
  write_hf_checkpoint(dir, c, w, o);
  EXPECT_FALSE(fs::exists(dir + "/model.safetensors"));
  const json index = index_of(dir);
  std::set<std::string> shards;
  for (const auto& [tensor, shard] : index["weight_map"].items()) shards.insert(shard.get<std::string>());
  EXPECT_GT(shards.size(), 2u);
  EXPECT_EQ(index["weight_map"].size(), w.size());
  for (const auto& s : shards) EXPECT_TRUE(fs::exists(dir + "/" + s)) << s;

  const HfCheckpoint back = read_hf_checkpoint(dir);
  expect_equal_maps(back.weights, w);  // bfloat16 stays bfloat16
  EXPECT_EQ(back.tokenizer_model_path, dir + "/tokenizer.model");
  EXPECT_EQ(read_text(back.tokenizer_model_path), "sentencepiece bytes");
}

TEST_F(HfCheckpointTest, RewritingSwitchesLayoutAndRemovesStaleFiles) {
  const std::string dir = sharded();
  const ModelConfig c = small_model_config();
  TensorMap w = random_weights(c);
  w["model.norm.weight"] = torch::full({16}, 3.0);
  write_hf_checkpoint(dir, c, w);  // now one file
  EXPECT_FALSE(fs::exists(dir + "/model.safetensors.index.json"));
  for (const auto& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string().rfind("model-", 0), std::string::npos) << entry.path();
  expect_equal_maps(read_hf_checkpoint(dir).weights, w);
  HfWriteOptions o;
  o.max_shard_bytes = 4096;
  write_hf_checkpoint(dir, c, w, o);  // and back to shards
  EXPECT_FALSE(fs::exists(dir + "/model.safetensors"));
  expect_equal_maps(read_hf_checkpoint(dir).weights, w);
}

TEST_F(HfCheckpointTest, TiedModelsOmitLmHeadAndAcceptAnEqualOne) {
  ModelConfig c = small_model_config();
  c.tie_word_embeddings = true;
  TensorMap w = random_weights(c);
  EXPECT_EQ(w.count("lm_head.weight"), 0u);
  TensorMap with_head = w;
  with_head["lm_head.weight"] = w.at("model.embed_tokens.weight").clone();
  const std::string dir = path("tied");
  write_hf_checkpoint(dir, c, with_head);
  EXPECT_EQ(read_safetensors(dir + "/model.safetensors").count("lm_head.weight"), 0u);  // as HF writes it

  // Some exporters store the tied head anyway: equal is fine, different is an error.
  write_safetensors(dir + "/model.safetensors", with_head);
  expect_equal_maps(read_hf_checkpoint(dir).weights, w);
  with_head["lm_head.weight"] = with_head["lm_head.weight"] + 1;
  write_safetensors(dir + "/model.safetensors", with_head);
  expect_error([&] { read_hf_checkpoint(dir); }, {dir + "/model.safetensors", "lm_head.weight", "tie_word_embeddings"});
}

TEST_F(HfCheckpointTest, WeightsMustMatchConfigJson) {
  const std::string dir = path("ckpt");
  write_hf_checkpoint(dir, small_model_config(), random_weights(small_model_config()));
  TensorMap w = read_safetensors(dir + "/model.safetensors");
  w["model.layers.1.mlp.up_proj.weight"] = torch::zeros({25, 16});
  w.erase("model.norm.weight");
  w["model.layers.0.self_attn.rotary_emb.inv_freq"] = torch::ones({2});  // old HF files: dropped
  write_safetensors(dir + "/model.safetensors", w);
  expect_error([&] { read_hf_checkpoint(dir); },
               {"config.json", "model.norm.weight", "model.layers.1.mlp.up_proj.weight: expected [24, 16], got [25, 16]"});
  w["model.layers.1.mlp.up_proj.weight"] = torch::zeros({24, 16});
  w["model.norm.weight"] = torch::ones({16});
  write_safetensors(dir + "/model.safetensors", w);
  EXPECT_EQ(read_hf_checkpoint(dir).weights.count("model.layers.0.self_attn.rotary_emb.inv_freq"), 0u);
}

TEST_F(HfCheckpointTest, WriterRejectsTensorsOutsideTheLayout) {
  TensorMap w = random_weights(small_model_config());
  w["model.layers.0.self_attn.q_proj.lora_A.weight"] = torch::zeros({4, 16});
  expect_error([&] { write_hf_checkpoint(path("x"), small_model_config(), w); }, {"lora_A", "save_adapters"});
  EXPECT_FALSE(fs::exists(path("x")));
}

TEST_F(HfCheckpointTest, MissingPiecesAreNamed) {
  expect_error([&] { read_hf_checkpoint(path("nope")); }, {path("nope"), "not a checkpoint directory"});
  fs::create_directories(path("empty"));
  expect_error([&] { read_hf_checkpoint(path("empty")); }, {"no config.json"});
  write_text(path("empty/config.json"), model_config_to_hf_json(small_model_config()));
  write_text(path("empty/pytorch_model.bin"), "pickle");
  expect_error([&] { read_hf_checkpoint(path("empty")); }, {"model.safetensors", "pickle", "safe_serialization"});
  const std::string dir = sharded();
  write_safetensors(dir + "/model.safetensors", random_weights(small_model_config()));
  expect_error([&] { read_hf_checkpoint(dir); }, {"both", "stale"});
}

TEST_F(HfCheckpointTest, IndexWithAMissingShard) {
  const std::string dir = sharded();
  const std::string shard = index_of(dir)["weight_map"]["model.norm.weight"];
  fs::remove(dir + "/" + shard);
  expect_error([&] { read_hf_checkpoint(dir); }, {"model.safetensors.index.json", shard, "missing"});
}

TEST_F(HfCheckpointTest, IndexPathsMustStayInsideTheDirectory) {
  const std::string dir = sharded();
  json index = index_of(dir);
  const std::string shard = index["weight_map"]["model.norm.weight"];
  fs::copy_file(dir + "/" + shard, path("outside.safetensors"));
  index["weight_map"]["model.norm.weight"] = "../outside.safetensors";
  set_index(dir, index);
  expect_error([&] { read_hf_checkpoint(dir); }, {"weight_map[\"model.norm.weight\"]", "leaves the checkpoint directory"});
  index["weight_map"]["model.norm.weight"] = path("outside.safetensors");
  set_index(dir, index);
  expect_error([&] { read_hf_checkpoint(dir); }, {"model.norm.weight", "relative"});
  fs::create_symlink(path("outside.safetensors"), dir + "/link.safetensors");
  index["weight_map"]["model.norm.weight"] = "link.safetensors";
  set_index(dir, index);
  expect_error([&] { read_hf_checkpoint(dir); }, {"model.norm.weight", "resolves outside"});
}

TEST_F(HfCheckpointTest, ATensorInTwoShardsIsRejected) {
  const std::string dir = sharded();
  const json index = index_of(dir);
  const std::string first = index["weight_map"]["model.embed_tokens.weight"];
  const std::string other = index["weight_map"]["model.norm.weight"];
  ASSERT_NE(first, other);
  TensorMap shard = read_safetensors(dir + "/" + other);
  shard.emplace("model.embed_tokens.weight", torch::zeros({40, 16}));
  write_safetensors(dir + "/" + other, shard);
  expect_error([&] { read_hf_checkpoint(dir); }, {other, "model.embed_tokens.weight", first, "exactly one shard"});
}

TEST_F(HfCheckpointTest, IndexAndShardsMustAgree) {
  const std::string dir = sharded();
  json index = index_of(dir);
  const json original = index;
  index["weight_map"]["model.extra.weight"] = index["weight_map"]["model.norm.weight"];
  set_index(dir, index);
  expect_error([&] { read_hf_checkpoint(dir); }, {"model.safetensors.index.json", "model.extra.weight", "does not contain it"});

  index = original;
  index["weight_map"].erase("model.norm.weight");
  set_index(dir, index);
  expect_error([&] { read_hf_checkpoint(dir); }, {"model.norm.weight", "not listed"});

  // A name given twice could map to two shards; nlohmann::json would silently keep one.
  std::string text = original.dump();
  const std::string entry = "\"model.norm.weight\":";
  text.insert(text.find(entry), entry + "\"model-00001-of-00009.safetensors\",");
  write_text(dir + "/model.safetensors.index.json", text);
  expect_error([&] { read_hf_checkpoint(dir); }, {"model.norm.weight", "twice"});

  write_text(dir + "/model.safetensors.index.json", R"({"weight_map": []})");
  expect_error([&] { read_hf_checkpoint(dir); }, {"weight_map"});
}

}  // namespace
}  // namespace falcon::model
