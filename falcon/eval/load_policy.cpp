#include "falcon/eval/load_policy.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "falcon/core/atomic_file.h"
#include "falcon/core/config.h"
#include "falcon/core/error.h"
#include "falcon/model/adapters.h"
#include "falcon/model/checkpoint.h"
#include "falcon/model/hf_checkpoint.h"
#include "falcon/model/config/model_presets.h"
#include "falcon/model/safetensors.h"
#include "falcon/model/state_dict.h"
#include "falcon/scoring/text_style_file.h"
#include "falcon/recipe/recipe.h"

namespace falcon::eval {

using namespace scoring;  // the run is written in the terms of what it scores
namespace {

void check_vocabulary(const model::ModelConfig& config, const text::Tokenizer& tokenizer, const std::string& what) {
  if (tokenizer.vocab_size() > config.vocab_size)
    throw Error(what + ": the tokenizer has " + std::to_string(tokenizer.vocab_size()) +
                " pieces but the model only " + std::to_string(config.vocab_size) +
                " embeddings; give model.tokenizer the tokenizer.model the model was trained with");
}

Policy from_hf(const ModelSpec& spec, const torch::Device& device) {
  const formats::TextStyle style = read_text_style(spec.path);
  auto tokenizer = text::Tokenizer::load(spec.tokenizer).with_chat_template(style.chat);
  const auto hf = model::read_hf_checkpoint(spec.path);
  check_vocabulary(hf.config, tokenizer, spec.path);
  model::CausalLm lm(hf.config, torch::TensorOptions().device(device));
  model::LoadOptions options;
  options.source = spec.path;
  model::load_state_dict(*lm, hf.weights, options);
  std::string description = spec.path;
  if (!spec.adapter.empty()) {
    const auto adapter = model::read_adapters(spec.adapter);
    lm->add_lora(adapter.config);
    model::load_adapters(spec.adapter, lm->named_lora_parameters(), adapter.config);
    description += " + adapter " + spec.adapter;
  }
  lm->eval();
  return Policy{lm, tokenizer, style, description};
}

Policy from_checkpoint(const ModelSpec& spec, const torch::Device& device) {
  const std::string dir = model::find_checkpoint(spec.checkpoint);
  if (dir.empty())
    throw Error("model.checkpoint: no complete checkpoint under '" + spec.checkpoint +
                "'; give a step_N directory or a falcon_train run's output_dir/checkpoints");
  // The run's resolved recipe gives the model's shape and the stages' LoRA settings.
  auto recipe_config = Config::from_string(read_file(dir + "/config.yaml"), dir + "/config.yaml");
  const auto recipe = recipe::read_recipe(recipe_config);
  auto model_config = model::resolve_model_section(recipe_config, "model");
  auto tokenizer = text::Tokenizer::load(spec.tokenizer).with_chat_template(recipe.text_style.chat);
  model_config.vocab_size = recipe::model_vocab_size(recipe, tokenizer.vocab_size());  // as falcon_train sizes it

  const auto state = nlohmann::json::parse(read_file(dir + "/trainer_state.json"), nullptr, false);
  if (!state.is_object() || !state.contains("stage"))
    throw Error(dir + "/trainer_state.json: missing or malformed (needs 'stage'); is this a falcon_train checkpoint?");
  const int stage = state["stage"].get<int>();
  if (stage < 0 || stage >= static_cast<int>(recipe.stages.size()))
    throw Error(dir + "/trainer_state.json: stage " + std::to_string(stage) + " is not a stage of its config.yaml");

  model::CausalLm lm(model_config, torch::TensorOptions().device(device));
  bool has_lora = false;
  for (const auto& [name, tensor] : model::read_safetensors(dir + "/model.safetensors"))
    has_lora = has_lora || name.find(".lora_") != std::string::npos;
  bool merged = false;  // a full fine-tuning stage after a LoRA one merged the adapters into the base
  if (has_lora) {
    int lora_stage = stage;
    while (lora_stage >= 0 && recipe.stages[lora_stage].lora.rank == 0) --lora_stage;
    if (lora_stage < 0) throw Error(dir + ": LoRA tensors, but no stage up to " + std::to_string(stage) + " has lora.rank > 0");
    merged = lora_stage != stage;
    lm->add_lora(recipe.stages[lora_stage].lora);
  }
  model::load_checkpoint(dir, *lm, nullptr);
  if (merged) lm->set_adapters_enabled(false);  // the base already holds them
  lm->eval();
  return Policy{lm, tokenizer, recipe.text_style, dir + " (stage " + std::to_string(stage) + ")"};
}

}  // namespace

Policy load_policy(const ModelSpec& spec, const torch::Device& device) {
  if (!spec.path.empty()) return from_hf(spec, device);
  if (!spec.checkpoint.empty()) return from_checkpoint(spec, device);
  throw Error("model: give path (a Hugging Face directory) or checkpoint");
}

}  // namespace falcon::eval
