#pragma once
// The model an evaluation samples from, with its tokenizer:
//   model.path:       a Hugging Face directory (falcon_train's final/: config.json, weights with any
//                     LoRA adapters merged, tokenizer.model), optionally + model.adapter (PEFT);
//   model.checkpoint: a falcon_train checkpoint (step_N or the checkpoints root); the model's shape
//                     comes from the config.yaml stored in it, the vocabulary from model.tokenizer,
//                     and LoRA adapters are rebuilt from the recipe's stage settings.
// The text style comes from the directory's text_style.json (absent: paper) or the recipe.
#include <string>

#include "falcon/core/torch/shim.h"
#include "falcon/formats/text_style.h"
#include "falcon/model/transformer.h"
#include "falcon/scoring/eval_spec.h"
#include "falcon/text/tokenizer.h"

namespace falcon::eval {

struct Policy {
  model::CausalLm model;
  text::Tokenizer tokenizer;
  formats::TextStyle style;  // the text it was trained on: text_style.json, or the recipe's text section
  std::string description;  // what was loaded, for the log and summary.json
};

// In eval mode on `device`. Throws falcon::Error naming the file and what is wrong.
Policy load_policy(const scoring::ModelSpec& spec, const torch::Device& device);

}  // namespace falcon::eval
