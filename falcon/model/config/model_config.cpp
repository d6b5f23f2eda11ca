#include "falcon/model/config/model_config.h"

#include <cmath>
#include <cstdio>

#include "falcon/core/config.h"
#include "falcon/core/error.h"

namespace falcon::model {
namespace {

const char* const kDtypes[] = {"float32", "bfloat16", "float16"};

// Shortest text of a double ("1e-05", "0.5"), for messages.
std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string key_path(const std::string& section, const std::string& key) {
  return section.empty() ? key : section + "." + key;
}

}  // namespace

void ModelConfig::validate(const std::string& where) const {
  auto fail = [&](const std::string& field, const std::string& what) {
    return Error(where + ": model field '" + field + "' " + what);
  };
  const std::pair<const char*, std::int64_t> positive[] = {
      {"vocab_size", vocab_size},
      {"hidden_size", hidden_size},
      {"intermediate_size", intermediate_size},
      {"num_hidden_layers", num_hidden_layers},
      {"num_attention_heads", num_attention_heads},
      {"num_key_value_heads", num_key_value_heads},
      {"max_position_embeddings", max_position_embeddings},
  };
  for (const auto& [field, value] : positive)
    if (value <= 0) throw fail(field, "= " + std::to_string(value) + " must be positive");
  if (hidden_size % num_attention_heads != 0)
    throw fail("num_attention_heads", "= " + std::to_string(num_attention_heads) + " does not divide hidden_size = " +
                                          std::to_string(hidden_size));
  if (num_attention_heads % num_key_value_heads != 0)
    throw fail("num_key_value_heads", "= " + std::to_string(num_key_value_heads) +
                                          " does not divide num_attention_heads = " + std::to_string(num_attention_heads) +
                                          " (grouped-query attention shares each key/value head by a whole group)");
  if (head_dim() % 2 != 0)
    throw fail("hidden_size", "/ num_attention_heads = head_dim " + std::to_string(head_dim()) +
                                  " is odd; rotary embeddings rotate pairs, so it must be even");
  if (!(rope_theta > 1.0) || !std::isfinite(rope_theta))
    throw fail("rope_theta", "= " + number(rope_theta) + " must be a finite number > 1");
  if (!(rms_norm_eps > 0.0) || !(rms_norm_eps < 1.0))
    throw fail("rms_norm_eps", "= " + number(rms_norm_eps) + " must be in (0, 1)");
  bool known_dtype = false;
  for (const char* d : kDtypes) known_dtype = known_dtype || torch_dtype == d;
  if (!known_dtype) throw fail("torch_dtype", "= '" + torch_dtype + "' is not one of float32, bfloat16, float16");
}

std::int64_t ModelConfig::parameter_count() const {
  const std::int64_t h = hidden_size, kv = num_key_value_heads * head_dim();
  const std::int64_t attention = h * h + 2 * h * kv + h * h + (attention_bias ? h + 2 * kv : 0);  // q, k, v, o
  const std::int64_t mlp = 3 * h * intermediate_size;                                            // gate, up, down
  const std::int64_t layer = attention + mlp + 2 * h;                                           // + two norms
  const std::int64_t embedding = vocab_size * h;
  return embedding + num_hidden_layers * layer + h + (tie_word_embeddings ? 0 : embedding);
}

double ModelConfig::training_flops_per_token(std::int64_t context) const {
  // The input embedding is a lookup, not a matmul; a tied embedding is still the output matmul.
  const double matmul_params =
      static_cast<double>(parameter_count() - (tie_word_embeddings ? 0 : vocab_size * hidden_size));
  return 6.0 * matmul_params + 12.0 * static_cast<double>(num_hidden_layers) * static_cast<double>(context) *
                                   static_cast<double>(hidden_size);
}

ModelConfig model_config_from_yaml(Config& config, const std::string& section, const ModelConfig& defaults) {
  auto key = [&](const char* name) { return key_path(section, name); };
  ModelConfig m;
  m.vocab_size = config.get_int(key("vocab_size"), defaults.vocab_size);
  m.hidden_size = config.get_int(key("hidden_size"), defaults.hidden_size);
  m.intermediate_size = config.get_int(key("intermediate_size"), defaults.intermediate_size);
  m.num_hidden_layers = config.get_int(key("num_hidden_layers"), defaults.num_hidden_layers);
  const bool sets_heads = config.has(key("num_attention_heads"));
  m.num_attention_heads = config.get_int(key("num_attention_heads"), defaults.num_attention_heads);
  // As in HF: without its own setting, every head has its own key/value head.
  m.num_key_value_heads =
      config.get_int(key("num_key_value_heads"), sets_heads ? m.num_attention_heads : defaults.num_key_value_heads);
  m.max_position_embeddings = config.get_int(key("max_position_embeddings"), defaults.max_position_embeddings);
  m.rope_theta = config.get_double(key("rope_theta"), defaults.rope_theta);
  m.rms_norm_eps = config.get_double(key("rms_norm_eps"), defaults.rms_norm_eps);
  m.tie_word_embeddings = config.get_bool(key("tie_word_embeddings"), defaults.tie_word_embeddings);
  m.attention_bias = config.get_bool(key("attention_bias"), defaults.attention_bias);
  m.torch_dtype = config.get_string(key("torch_dtype"), defaults.torch_dtype);
  m.validate(config.source() + (section.empty() ? std::string() : " section '" + section + "'"));
  return m;
}

}  // namespace falcon::model
