#pragma once
// LoRA adapter settings (PEFT's names), apart from the layers (lora.h) so that torch-free code,
// such as the recipe reader, can hold them.
#include <string>
#include <vector>

namespace falcon::model {

struct LoraConfig {
  int rank = 0;                // 0: no adapters (full fine-tuning or frozen)
  double alpha = 16.0;         // scaling = alpha / rank
  double dropout = 0.0;
  // Which projections get adapters (PEFT's target_modules).
  std::vector<std::string> target_modules = {"q_proj", "k_proj", "v_proj", "o_proj",
                                             "gate_proj", "up_proj", "down_proj"};
  double scaling() const { return rank > 0 ? alpha / rank : 0.0; }
};

}  // namespace falcon::model
