#pragma once
// Architecture of a Llama-family decoder (Llama 2/3, Qwen2, TinyLlama, ...), with the field
// names of Hugging Face's config.json so one struct reads our YAML and their checkpoints.
#include <cstdint>
#include <string>

namespace falcon {
class Config;
}

namespace falcon::model {

struct ModelConfig {
  std::int64_t vocab_size = 2000;
  std::int64_t hidden_size = 256;
  std::int64_t intermediate_size = 688;        // SwiGLU width; Llama uses ~8/3 * hidden
  std::int64_t num_hidden_layers = 6;
  std::int64_t num_attention_heads = 8;
  std::int64_t num_key_value_heads = 8;        // < num_attention_heads: grouped-query attention
  std::int64_t max_position_embeddings = 2048;
  double rope_theta = 10000.0;
  double rms_norm_eps = 1e-5;
  bool tie_word_embeddings = false;            // lm_head shares embed_tokens.weight
  bool attention_bias = false;                 // q/k/v projections carry a bias (Qwen2)
  std::string torch_dtype = "float32";         // "float32" | "bfloat16" | "float16"

  std::int64_t head_dim() const { return hidden_size / num_attention_heads; }
  // Throws falcon::Error naming `where` and the field when the numbers cannot form a model
  // (heads not dividing hidden, kv heads not dividing heads, odd head_dim for RoPE, ...).
  void validate(const std::string& where) const;

  // Parameter count of the base model (embedding counted once when tied).
  std::int64_t parameter_count() const;
  // Forward+backward FLOPs of one token at context length `context`: 6 * (parameters without
  // the input embedding) + the attention score/value products 6 * 2 * layers * context * hidden
  // (the PaLM appendix B accounting, with the causal half already folded into `context`).
  // A tied embedding still costs its output projection: it is counted once, as lm_head.
  double training_flops_per_token(std::int64_t context) const;
};

// The `model` section of a YAML recipe (keys as above; "" reads the top level). Absent keys take
// `defaults` and are recorded in the resolved document (so the stored config names every
// setting); num_key_value_heads defaults to num_attention_heads when the section sets the
// latter. Validates the result, naming the source and section. Unknown keys are left to
// Config::check_unused. `preset:` is expanded by resolve_model_section (model_presets.h).
ModelConfig model_config_from_yaml(Config& config, const std::string& section, const ModelConfig& defaults = {});
// Hugging Face config.json (architectures LlamaForCausalLM, Qwen2ForCausalLM, MistralForCausalLM
// without sliding window). Missing optional fields take HF's defaults; an unsupported
// architecture or rope_scaling is an error naming the file and the field.
ModelConfig model_config_from_hf_json(const std::string& path);
ModelConfig model_config_from_hf_json_text(const std::string& text, const std::string& source);
// config.json text HF's transformers reads back ("architectures": ["LlamaForCausalLM"], or
// Qwen2ForCausalLM when attention_bias is set).
std::string model_config_to_hf_json(const ModelConfig& config);

}  // namespace falcon::model
