#include "falcon/policy/model_dir.h"

#include <filesystem>

#include "falcon/model/hf_checkpoint.h"
#include "falcon/model/state_dict.h"
#include "falcon/scoring/text_style_file.h"
#include "falcon/text/tokenizer.h"

namespace falcon::policy {

model::TensorMap merged_weights(model::CausalLm& model) {
  const bool merge = model->lora_config().rank > 0 && !model->adapted_layers().front()->merged();
  if (merge) model->merge_adapters();
  model::TensorMap weights;
  for (const auto& [name, tensor] : model::state_dict(*model))
    if (name.find(".lora_") == std::string::npos) weights[name] = tensor.detach().to(torch::kCPU).clone();
  if (merge) model->unmerge_adapters();
  return weights;
}

void write_model_dir(const std::string& dir, const model::ModelConfig& config, const model::TensorMap& weights,
                     const std::string& tokenizer_path, const formats::TextStyle& style) {
  std::filesystem::create_directories(dir);
  model::write_hf_checkpoint(dir, config, weights);
  text::copy_tokenizer(tokenizer_path, dir);
  scoring::write_text_style(dir, style);
}

}  // namespace falcon::policy
