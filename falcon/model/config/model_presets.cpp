#include "falcon/model/config/model_presets.h"

#include <algorithm>
#include <map>

#include "falcon/core/atomic_file.h"
#include "falcon/core/config.h"
#include "falcon/core/error.h"

namespace falcon::model {

// Generated from configs/models/*.yaml by falcon/CMakeLists.txt (model_presets_data.cpp.in).
const std::map<std::string, std::string>& embedded_model_presets();

namespace {

ModelConfig parse_preset(const std::string& text, const std::string& source) {
  Config preset = Config::from_string(text, source);
  ModelConfig m = model_config_from_yaml(preset, "");
  preset.check_unused();
  return m;
}

std::string joined_names() {
  std::string s;
  for (const auto& n : model_preset_names()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::vector<std::string> model_preset_names() {
  std::vector<std::string> names;
  for (const auto& [name, _] : embedded_model_presets()) names.push_back(name);
  return names;  // a std::map: already sorted
}

std::string model_preset_text(const std::string& name) {
  const auto& presets = embedded_model_presets();
  const auto it = presets.find(name);
  if (it == presets.end())
    throw Error("unknown model preset '" + name + "' (known presets: " + joined_names() +
                "; or give a path to a .yaml file of model keys)");
  return it->second;
}

ModelConfig model_preset(const std::string& name) {
  return parse_preset(model_preset_text(name), "configs/models/" + name + ".yaml");
}

ModelConfig resolve_model_section(Config& config, const std::string& section) {
  const std::string preset_key = section.empty() ? "preset" : section + ".preset";
  ModelConfig defaults;
  if (config.has(preset_key)) {
    const std::string name = config.get_string(preset_key);
    try {
      defaults = ends_with(name, ".yaml") ? parse_preset(read_file(name), name) : model_preset(name);
    } catch (const Error& e) {
      throw Error(config.source() + ": key '" + preset_key + "': " + e.what());
    }
  }
  return model_config_from_yaml(config, section, defaults);
}

}  // namespace falcon::model
