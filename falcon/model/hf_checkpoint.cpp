#include "falcon/model/hf_checkpoint.h"

#include <unistd.h>

#include <filesystem>
#include <regex>
#include <set>

#include "falcon/core/atomic_file.h"
#include "falcon/core/error.h"
#include "falcon/model/config/json_file.h"
#include "falcon/model/state_dict.h"

namespace falcon::model {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kSingleFile = "model.safetensors";
constexpr const char* kIndexFile = "model.safetensors.index.json";
constexpr const char* kEmbed = "model.embed_tokens.weight";
constexpr const char* kLmHead = "lm_head.weight";

const Metadata kPtMetadata = {{"format", "pt"}};  // transformers rejects files without it

std::string join(const std::string& dir, const std::string& name) { return (fs::path(dir) / name).string(); }

bool is_file(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

// A shard name from an index must name a file inside `dir`: relative, no "..", and still inside
// once symbolic links are resolved.
std::string shard_path(const std::string& dir, const std::string& index_path, const std::string& shard,
                       const std::string& tensor) {
  auto fail = [&](const std::string& what) {
    return Error(index_path + ": weight_map[\"" + tensor + "\"] = \"" + shard + "\": " + what);
  };
  const fs::path rel(shard);
  if (shard.empty() || rel.is_absolute()) throw fail("shard paths must be relative to the checkpoint directory");
  for (const auto& part : rel)
    if (part == "..") throw fail("shard path leaves the checkpoint directory");
  const fs::path full = fs::path(dir) / rel;
  std::error_code ec;
  if (!fs::is_regular_file(full, ec)) throw fail("shard file is missing (" + full.string() + ")");
  const fs::path real = fs::canonical(full, ec);
  const fs::path base = fs::canonical(dir, ec);
  const std::string real_s = real.string(), base_s = base.string() + "/";
  if (ec || real_s.compare(0, base_s.size(), base_s) != 0)
    throw fail("shard file resolves outside the checkpoint directory (" + real_s + ")");
  return full.string();
}

TensorMap read_sharded(const std::string& dir, const std::string& index_path) {
  const json index = read_json_file(index_path);
  if (!index.is_object() || !index.contains("weight_map") || !index["weight_map"].is_object())
    throw Error(index_path + ": expected an object with \"weight_map\": {tensor name: shard file}");
  const json& weight_map = index["weight_map"];
  if (weight_map.empty()) throw Error(index_path + ": \"weight_map\" is empty");

  // Validate the whole index before reading any shard.
  std::map<std::string, std::string> shard_of;    // tensor -> shard name
  std::map<std::string, std::string> shard_files;  // shard name -> path
  for (const auto& [tensor, shard] : weight_map.items()) {
    if (!shard.is_string()) throw Error(index_path + ": weight_map[\"" + tensor + "\"] is not a file name");
    const std::string name = shard.get<std::string>();
    if (!shard_files.count(name)) shard_files[name] = shard_path(dir, index_path, name, tensor);
    shard_of[tensor] = name;
  }

  TensorMap weights;
  for (const auto& [name, path] : shard_files) {
    for (auto& [tensor, value] : read_safetensors(path)) {
      const auto listed = shard_of.find(tensor);
      if (listed == shard_of.end())
        throw Error(path + ": tensor '" + tensor + "' is not listed in " + index_path);
      if (listed->second != name)
        throw Error(path + ": tensor '" + tensor + "' is stored here too, but " + index_path + " maps it to '" +
                    listed->second + "' (a tensor must be in exactly one shard)");
      weights.emplace(tensor, std::move(value));
    }
  }
  for (const auto& [tensor, shard] : shard_of)
    if (!weights.count(tensor))
      throw Error(index_path + ": maps tensor '" + tensor + "' to '" + shard + "', which does not contain it");
  return weights;
}

// Tied models: HF writes no lm_head.weight; accept one only when it is the embedding.
void drop_tied_lm_head(TensorMap& weights, const ModelConfig& config, const std::string& source) {
  const auto head = weights.find(kLmHead);
  if (!config.tie_word_embeddings || head == weights.end()) return;
  const auto embed = weights.find(kEmbed);
  if (embed != weights.end() && head->second.sizes() == embed->second.sizes() &&
      torch::equal(head->second.to(torch::kCPU, embed->second.scalar_type()), embed->second.to(torch::kCPU)))
    weights.erase(head);
  else
    throw Error(source + ": tensor '" + std::string(kLmHead) +
                "' differs from the embedding, but tie_word_embeddings is true (set it to false in config.json "
                "if the output projection is a separate matrix)");
}

TensorMap expected_tensors(const ModelConfig& config) {
  TensorMap expected;
  for (const auto& [name, shape] : hf_parameter_shapes(config))
    expected.emplace(name, torch::empty(shape, torch::TensorOptions().device(torch::kMeta)));
  return expected;
}

// model-00001-of-00003.safetensors
bool is_shard_name(const std::string& name) {
  static const std::regex kShard(R"(model-\d{5}-of-\d{5}\.safetensors)");
  return std::regex_match(name, kShard);
}

void remove_file(const std::string& path) {
  std::error_code ec;
  fs::remove(path, ec);
  if (ec) throw Error(path + ": cannot remove the stale file: " + ec.message());
}

// Writes the weight files and config.json into `dir` (which exists); returns the files written.
std::set<std::string> write_files(const std::string& dir, const ModelConfig& config, const TensorMap& weights,
                                  const HfWriteOptions& options) {
  // Greedy packing in name order, as transformers' shard_checkpoint does.
  std::vector<TensorMap> shards(1);
  std::uint64_t shard_bytes = 0, total_bytes = 0;
  for (const auto& [name, t] : weights) {
    const auto bytes = static_cast<std::uint64_t>(t.numel()) * t.element_size();
    if (options.max_shard_bytes > 0 && !shards.back().empty() && shard_bytes + bytes > options.max_shard_bytes) {
      shards.emplace_back();
      shard_bytes = 0;
    }
    shards.back().emplace(name, t.to(torch::kCPU));
    shard_bytes += bytes;
    total_bytes += bytes;
  }

  std::set<std::string> written;
  if (shards.size() == 1) {
    write_safetensors(join(dir, kSingleFile), shards[0], kPtMetadata);
    written.insert(kSingleFile);
  } else {
    json weight_map = json::object();
    char name[64];
    for (std::size_t i = 0; i < shards.size(); ++i) {
      std::snprintf(name, sizeof name, "model-%05zu-of-%05zu.safetensors", i + 1, shards.size());
      write_safetensors(join(dir, name), shards[i], kPtMetadata);
      written.insert(name);
      for (const auto& [tensor, _] : shards[i]) weight_map[tensor] = name;
    }
    write_json_file(join(dir, kIndexFile), {{"metadata", {{"total_size", total_bytes}}}, {"weight_map", weight_map}});
    written.insert(kIndexFile);
  }
  if (!options.tokenizer_model.empty()) {
    write_file_atomic(join(dir, "tokenizer.model"), read_file(options.tokenizer_model));
    written.insert("tokenizer.model");
  }
  write_file_atomic(join(dir, "config.json"), model_config_to_hf_json(config));
  written.insert("config.json");
  return written;
}

}  // namespace

std::map<std::string, std::vector<std::int64_t>> hf_parameter_shapes(const ModelConfig& c) {
  const std::int64_t h = c.hidden_size, kv = c.num_key_value_heads * c.head_dim(), inter = c.intermediate_size;
  std::map<std::string, std::vector<std::int64_t>> shapes;
  shapes[kEmbed] = {c.vocab_size, h};
  for (std::int64_t i = 0; i < c.num_hidden_layers; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    shapes[p + "input_layernorm.weight"] = {h};
    shapes[p + "self_attn.q_proj.weight"] = {h, h};
    shapes[p + "self_attn.k_proj.weight"] = {kv, h};
    shapes[p + "self_attn.v_proj.weight"] = {kv, h};
    shapes[p + "self_attn.o_proj.weight"] = {h, h};
    if (c.attention_bias) {
      shapes[p + "self_attn.q_proj.bias"] = {h};
      shapes[p + "self_attn.k_proj.bias"] = {kv};
      shapes[p + "self_attn.v_proj.bias"] = {kv};
    }
    shapes[p + "post_attention_layernorm.weight"] = {h};
    shapes[p + "mlp.gate_proj.weight"] = {inter, h};
    shapes[p + "mlp.up_proj.weight"] = {inter, h};
    shapes[p + "mlp.down_proj.weight"] = {h, inter};
  }
  shapes["model.norm.weight"] = {h};
  if (!c.tie_word_embeddings) shapes[kLmHead] = {c.vocab_size, h};
  return shapes;
}

HfCheckpoint read_hf_checkpoint(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error(dir + ": not a checkpoint directory (it does not exist or is a file)");
  const std::string config_path = join(dir, "config.json");
  if (!is_file(config_path)) throw Error(dir + ": no config.json; a Hugging Face checkpoint directory needs one");

  HfCheckpoint out;
  out.config = model_config_from_hf_json(config_path);
  const std::string single = join(dir, kSingleFile), index = join(dir, kIndexFile);
  const bool has_single = is_file(single), has_index = is_file(index);
  std::string source;
  if (has_single && has_index) {
    throw Error(dir + ": has both " + kSingleFile + " and " + kIndexFile + "; remove the stale one");
  } else if (has_single) {
    out.weights = read_safetensors(single);
    source = single;
  } else if (has_index) {
    out.weights = read_sharded(dir, index);
    source = index;
  } else {
    const bool pickle = is_file(join(dir, "pytorch_model.bin")) || is_file(join(dir, "pytorch_model.bin.index.json"));
    throw Error(dir + ": no " + kSingleFile + " or " + kIndexFile +
                (pickle ? " (only PyTorch pickle weights: convert them to safetensors, e.g. with transformers' "
                          "save_pretrained(safe_serialization=True))"
                        : ""));
  }

  drop_tied_lm_head(out.weights, out.config, source);
  LoadOptions check;
  check.source = source + " (against " + config_path + ")";
  check.hint = "config.json and the weights disagree: the files are damaged, or config.json belongs to another model.";
  for (const auto& name : check_tensors(expected_tensors(out.config), out.weights, check).ignored)
    out.weights.erase(name);

  const std::string tokenizer = join(dir, "tokenizer.model");
  if (is_file(tokenizer)) out.tokenizer_model_path = tokenizer;
  return out;
}

void write_hf_checkpoint(const std::string& target, const ModelConfig& config, const TensorMap& given,
                         const HfWriteOptions& options) {
  std::string dir = fs::path(target).lexically_normal().string();  // "out/ckpt/" -> "out/ckpt": <dir>.tmp is a sibling
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  config.validate(dir + "/config.json");
  TensorMap weights = given;
  drop_tied_lm_head(weights, config, "write_hf_checkpoint(" + dir + ")");
  LoadOptions check;
  check.ignore_unexpected.clear();
  check.source = "write_hf_checkpoint(" + dir + ")";
  check.hint = "The weights must be exactly the model's HF parameters (LoRA adapters: merge them and drop the "
               "lora_ tensors, or save them with save_adapters).";
  check_tensors(expected_tensors(config), weights, check);

  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    // A new directory appears complete or not at all.
    const std::string tmp = dir + ".tmp-" + std::to_string(::getpid());
    fs::remove_all(tmp, ec);
    if (!fs::create_directories(tmp, ec) && ec) throw Error(tmp + ": cannot create the directory: " + ec.message());
    try {
      write_files(tmp, config, weights, options);
      fsync_tree(tmp);
      fs::rename(tmp, dir);
    } catch (const std::exception& e) {
      fs::remove_all(tmp, ec);
      throw Error(dir + ": cannot write the checkpoint: " + e.what());
    }
    fsync_directory(fs::absolute(dir).parent_path().string());
    return;
  }
  if (!fs::is_directory(dir, ec)) throw Error(dir + ": exists and is not a directory");
  const std::set<std::string> written = write_files(dir, config, weights, options);
  // Files of the layout not written now would be read instead of, or besides, the new weights.
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (written.count(name)) continue;
    if (name == kSingleFile || name == kIndexFile || is_shard_name(name)) remove_file(entry.path().string());
  }
  fsync_directory(dir);
}

}  // namespace falcon::model
