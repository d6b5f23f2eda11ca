#pragma once
// LoRA adapters in PEFT's on-disk layout, so PEFT loads ours and we load PEFT's:
//
//   adapter_model.safetensors   base_model.model.<module>.lora_A.weight  [r, in]
//                               base_model.model.<module>.lora_B.weight  [out, r]
//   adapter_config.json         {"peft_type": "LORA", "task_type": "CAUSAL_LM", "r", "lora_alpha",
//                                "lora_dropout", "target_modules", "bias": "none", ...}
//
// <module> is the model's own module name ("model.layers.0.self_attn.q_proj"), so the names in
// memory are the file's without the "base_model.model." prefix. Works from (name, tensor) pairs
// (CausalLm::named_lora_parameters()), independent of the model class.
#include <string>
#include <utility>
#include <vector>

#include "falcon/model/lora.h"
#include "falcon/model/safetensors.h"

namespace falcon::model {

using NamedTensors = std::vector<std::pair<std::string, torch::Tensor>>;

inline constexpr const char* kPeftPrefix = "base_model.model.";

struct AdapterSaveOptions {
  std::string base_model_name_or_path;  // recorded for PEFT ("" writes null)
  bool inference_mode = true;           // PEFT's flag: loaded for inference unless asked otherwise
};

// Writes <dir>/adapter_model.safetensors and <dir>/adapter_config.json (creating dir), each
// atomically. Every name must end in ".lora_A.weight" / ".lora_B.weight" of a module whose last
// name is in config.target_modules, with shapes [rank, in] / [out, rank].
void save_adapters(const std::string& dir, const NamedTensors& lora_parameters, const LoraConfig& config,
                   const AdapterSaveOptions& options = {});

struct PeftAdapter {
  LoraConfig config;
  std::string base_model_name_or_path;  // "" when null
  TensorMap tensors;                    // names without the "base_model.model." prefix, file dtypes, CPU
};

// Reads an adapter directory (ours or PEFT's). PEFT options this LoRA does not implement
// (use_rslora, use_dora, bias other than "none", fan_in_fan_out, modules_to_save, rank_pattern,
// alpha_pattern, layers_to_transform, target_modules as a regex string) are errors naming the field.
PeftAdapter read_adapters(const std::string& dir);

// read_adapters, then checks r, lora_alpha and target_modules against `config` (the model's
// LoraConfig) and the tensors' names and shapes against `lora_parameters`, and copies them in
// (dtype converted, requires_grad kept). One falcon::Error naming the file and field or tensor.
void load_adapters(const std::string& dir, const NamedTensors& lora_parameters, const LoraConfig& config);

}  // namespace falcon::model
