#pragma once
// A model directory in Hugging Face's layout, the one falcon_eval's model.path and falcon_train's
// init.checkpoint read: config.json, model.safetensors (LoRA adapters merged in), tokenizer.model
// and text_style.json (the text the model was trained on).
#include <string>

#include "falcon/formats/text_style.h"
#include "falcon/model/safetensors.h"
#include "falcon/model/transformer.h"

namespace falcon::policy {

// The model's weights under the HF names, any LoRA adapters merged into the base (the model is
// left as it was), copied to the CPU.
model::TensorMap merged_weights(model::CausalLm& model);

// Writes `dir` (created when missing; see write_hf_checkpoint for atomicity), copying the
// tokenizer beside the weights.
void write_model_dir(const std::string& dir, const model::ModelConfig& config, const model::TensorMap& weights,
                     const std::string& tokenizer_path, const formats::TextStyle& style);

}  // namespace falcon::policy
