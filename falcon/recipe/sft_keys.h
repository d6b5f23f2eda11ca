#pragma once
// SFT's own key (its batches and loss: train/sft.h): how long a stage without `steps` runs.
#include <string>

#include "falcon/core/config.h"

namespace falcon::recipe {

struct StageSpec;

struct SftKeys {
  double epochs = 1.0;  // passes over the training split, when steps = 0
};

// stages[i].epochs (`base` is "stages[i]."), given the stage's common keys already read.
SftKeys read_sft_keys(Config& config, const std::string& base, const StageSpec& stage);

}  // namespace falcon::recipe
