// Hugging Face config.json <-> ModelConfig (the half of model_config.h that speaks JSON).
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "falcon/core/atomic_file.h"
#include "falcon/core/error.h"
#include "falcon/model/config/json_file.h"
#include "falcon/model/config/model_config.h"

namespace falcon::model {
namespace {

using nlohmann::json;

enum class Arch { kLlama, kQwen2, kMistral };

struct ArchInfo {
  const char* architecture;
  const char* model_type;
  Arch arch;
  std::int64_t default_max_positions;  // the transformers config class's default
};

constexpr ArchInfo kArchs[] = {
    {"LlamaForCausalLM", "llama", Arch::kLlama, 2048},
    {"Qwen2ForCausalLM", "qwen2", Arch::kQwen2, 32768},
    {"MistralForCausalLM", "mistral", Arch::kMistral, 4096 * 32},
};

// Reads the fields of one config.json, each error naming the source and the field.
class HfFields {
 public:
  HfFields(const json& root, std::string source) : root_(root), source_(std::move(source)) {}

  Error error(const std::string& field, const std::string& what) const {
    const auto it = root_.find(field);
    const std::string value = it == root_.end() ? "" : " = " + it->dump();
    return Error(source_ + ": field '" + field + "'" + value + ": " + what);
  }
  Error error(const std::string& what) const { return Error(source_ + ": " + what); }

  // Present and not null.
  bool has(const std::string& field) const {
    const auto it = root_.find(field);
    return it != root_.end() && !it->is_null();
  }
  const json& at(const std::string& field) const { return root_.at(field); }

  std::int64_t positive_int(const std::string& field) const {
    if (!has(field)) throw error(field, "missing; a Llama-family config.json must set it");
    const json& v = at(field);
    if (!v.is_number_integer() || v.get<std::int64_t>() <= 0) throw error(field, "must be a positive integer");
    return v.get<std::int64_t>();
  }
  std::int64_t positive_int(const std::string& field, std::int64_t fallback) const {
    return has(field) ? positive_int(field) : fallback;
  }
  double number(const std::string& field, double fallback) const {
    if (!has(field)) return fallback;
    const json& v = at(field);
    if (!v.is_number() || !std::isfinite(v.get<double>())) throw error(field, "must be a number");
    return v.get<double>();
  }
  bool boolean(const std::string& field, bool fallback) const {
    if (!has(field)) return fallback;
    if (!at(field).is_boolean()) throw error(field, "must be true or false");
    return at(field).get<bool>();
  }
  std::string string(const std::string& field, const std::string& fallback) const {
    if (!has(field)) return fallback;
    if (!at(field).is_string()) throw error(field, "must be a string");
    return at(field).get<std::string>();
  }

 private:
  const json& root_;
  std::string source_;
};

const ArchInfo& architecture(const HfFields& f) {
  if (f.has("architectures")) {
    const json& a = f.at("architectures");
    if (!a.is_array() || a.size() != 1 || !a[0].is_string())
      throw f.error("architectures", "must be a list of one architecture name");
    const std::string name = a[0].get<std::string>();
    for (const auto& info : kArchs)
      if (name == info.architecture) return info;
    throw f.error("architectures", "'" + name +
                                       "' is not supported (supported: LlamaForCausalLM, Qwen2ForCausalLM, "
                                       "MistralForCausalLM: Llama-family decoders with RoPE, RMSNorm and SwiGLU)");
  }
  const std::string type = f.string("model_type", "");
  for (const auto& info : kArchs)
    if (type == info.model_type) return info;
  throw f.error(type.empty() ? "no 'architectures' or 'model_type' field: cannot tell which model this is"
                             : "model_type '" + type + "' is not supported (supported: llama, qwen2, mistral)");
}

// The dtype name as ModelConfig spells it; transformers writes "float32"/"bfloat16"/"float16"
// (and "torch.bfloat16" in some old files).
std::string dtype(const HfFields& f) {
  // transformers >= 4.56 writes "dtype"; older versions "torch_dtype".
  const std::string field = f.has("torch_dtype") || !f.has("dtype") ? "torch_dtype" : "dtype";
  std::string d = f.string(field, "float32");
  if (d.rfind("torch.", 0) == 0) d = d.substr(6);
  if (d == "float" || d == "fp32") d = "float32";
  if (d == "half" || d == "fp16") d = "float16";
  if (d == "bf16") d = "bfloat16";
  if (d != "float32" && d != "bfloat16" && d != "float16")
    throw f.error(field, "must be float32, bfloat16 or float16");
  return d;
}

// transformers >= 5 writes {"rope_parameters": {"rope_theta": ..., "rope_type": "default"}};
// older versions a top-level "rope_theta" (and "rope_scaling", refused below).
double rope_theta(const HfFields& f) {
  const double top_level = f.number("rope_theta", 10000.0);
  if (!f.has("rope_parameters")) return top_level;
  const json& p = f.at("rope_parameters");
  if (!p.is_object()) throw f.error("rope_parameters", "must be an object with rope_theta and rope_type");
  const auto type = p.find("rope_type");
  if (type != p.end() && !(type->is_string() && type->get<std::string>() == "default"))
    throw f.error("rope_parameters", "rope_type " + type->dump() + " (RoPE scaling) is not supported; only \"default\"");
  const auto value = p.find("rope_theta");
  if (value == p.end()) return top_level;
  if (!value->is_number() || !std::isfinite(value->get<double>()) || value->get<double>() <= 0)
    throw f.error("rope_parameters", "rope_theta must be a positive number");
  const double theta = value->get<double>();
  if (f.has("rope_theta") && theta != top_level)
    throw f.error("rope_theta", "disagrees with rope_parameters.rope_theta = " + std::to_string(theta));
  return theta;
}

}  // namespace

ModelConfig model_config_from_hf_json_text(const std::string& text, const std::string& source) {
  const json root = parse_json(text, source);
  if (!root.is_object()) throw Error(source + ": a config.json must be a JSON object");
  const HfFields f(root, source);
  const ArchInfo& arch = architecture(f);

  ModelConfig m;
  m.vocab_size = f.positive_int("vocab_size");
  m.hidden_size = f.positive_int("hidden_size");
  m.intermediate_size = f.positive_int("intermediate_size");
  m.num_hidden_layers = f.positive_int("num_hidden_layers");
  m.num_attention_heads = f.positive_int("num_attention_heads");
  m.num_key_value_heads = f.positive_int("num_key_value_heads", m.num_attention_heads);
  m.max_position_embeddings = f.positive_int("max_position_embeddings", arch.default_max_positions);
  m.rope_theta = rope_theta(f);
  m.rms_norm_eps = f.number("rms_norm_eps", 1e-6);
  m.tie_word_embeddings = f.boolean("tie_word_embeddings", false);
  m.torch_dtype = dtype(f);

  switch (arch.arch) {
    case Arch::kQwen2:  // q/k/v carry a bias by construction; there is no field for it
      m.attention_bias = true;
      if (f.boolean("use_sliding_window", false))
        throw f.error("use_sliding_window", "sliding-window attention is not supported; set it to false");
      break;
    case Arch::kLlama:
      // Llama's attention_bias also puts a bias on o_proj, which this decoder (like Qwen2) has not.
      if (f.boolean("attention_bias", false))
        throw f.error("attention_bias", "Llama's attention_bias biases o_proj too, which is not supported "
                                        "(q/k/v biases only, as Qwen2ForCausalLM has)");
      if (f.boolean("mlp_bias", false)) throw f.error("mlp_bias", "MLP biases are not supported");
      break;
    case Arch::kMistral:
      if (f.has("sliding_window") &&
          (!f.at("sliding_window").is_number_integer() ||
           f.at("sliding_window").get<std::int64_t>() < m.max_position_embeddings))
        throw f.error("sliding_window", "sliding-window attention is not supported: it must be null or at least "
                                        "max_position_embeddings = " + std::to_string(m.max_position_embeddings));
      break;
  }
  if (f.has("rope_scaling"))
    throw f.error("rope_scaling", "RoPE scaling (linear, dynamic, yarn, llama3, ...) is not supported; only plain "
                                  "rotary embeddings with rope_theta");
  const std::string act = f.string("hidden_act", "silu");
  if (act != "silu") throw f.error("hidden_act", "must be \"silu\" (SwiGLU)");
  if (f.has("head_dim")) {
    const json& hd = f.at("head_dim");
    const std::int64_t expected = m.hidden_size / m.num_attention_heads;
    if (!hd.is_number_integer() || hd.get<std::int64_t>() != expected || m.hidden_size % m.num_attention_heads != 0)
      throw f.error("head_dim", "must equal hidden_size / num_attention_heads = " + std::to_string(m.hidden_size) +
                                    " / " + std::to_string(m.num_attention_heads) +
                                    " (a separate head_dim is not supported)");
  }
  m.validate(source);
  return m;
}

ModelConfig model_config_from_hf_json(const std::string& path) {
  return model_config_from_hf_json_text(read_file(path), path);
}

std::string model_config_to_hf_json(const ModelConfig& c) {
  // Qwen2 is the family whose q/k/v (and only those) carry biases, as this decoder's do.
  const bool qwen2 = c.attention_bias;
  json j;
  j["architectures"] = json::array({qwen2 ? "Qwen2ForCausalLM" : "LlamaForCausalLM"});
  j["model_type"] = qwen2 ? "qwen2" : "llama";
  j["vocab_size"] = c.vocab_size;
  j["hidden_size"] = c.hidden_size;
  j["intermediate_size"] = c.intermediate_size;
  j["num_hidden_layers"] = c.num_hidden_layers;
  j["num_attention_heads"] = c.num_attention_heads;
  j["num_key_value_heads"] = c.num_key_value_heads;
  j["max_position_embeddings"] = c.max_position_embeddings;
  j["rope_theta"] = c.rope_theta;
  j["rms_norm_eps"] = c.rms_norm_eps;
  j["tie_word_embeddings"] = c.tie_word_embeddings;
  j["hidden_act"] = "silu";
  j["rope_scaling"] = nullptr;
  j["initializer_range"] = 0.02;
  j["attention_dropout"] = 0.0;
  if (qwen2) {
    j["use_sliding_window"] = false;
    j["sliding_window"] = nullptr;
    j["max_window_layers"] = c.num_hidden_layers;
  } else {
    j["attention_bias"] = false;
    j["mlp_bias"] = false;
    j["pretraining_tp"] = 1;
  }
  j["use_cache"] = true;
  j["torch_dtype"] = c.torch_dtype;
  return j.dump(2) + "\n";
}

}  // namespace falcon::model
