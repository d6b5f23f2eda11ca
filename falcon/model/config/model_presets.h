#pragma once
// Named model sizes: configs/models/<name>.yaml, compiled into the binary (so a program finds
// them from any working directory), and the `model:` section of a recipe that starts from one:
//
//   model:
//     preset: tiny            # configs/models/tiny.yaml gives every key ...
//     num_hidden_layers: 4    # ... and the section's own keys override them
#include <string>
#include <vector>

#include "falcon/model/config/model_config.h"

namespace falcon {
class Config;
}

namespace falcon::model {

// Names of the compiled-in presets, sorted ("cpu_small", "llama3_8b", ..., "tiny").
std::vector<std::string> model_preset_names();
// The YAML text of a preset; throws falcon::Error naming the unknown preset and the known ones.
std::string model_preset_text(const std::string& name);
// A preset parsed and validated (its file must have no unknown keys).
ModelConfig model_preset(const std::string& name);

// The model of `section` ("model"): `preset: NAME` (optional) supplies the defaults, the
// section's other keys override them, and every setting in effect is recorded in the resolved
// document. NAME is a compiled-in preset, or a path to a preset file when it ends in ".yaml".
// Unknown keys are left to Config::check_unused.
ModelConfig resolve_model_section(Config& config, const std::string& section);

}  // namespace falcon::model
