#pragma once
// JSON files of checkpoints (config.json, index, adapter_config.json, trainer_state.json) read as
// untrusted input: invalid JSON, duplicate keys (which nlohmann::json would silently collapse) and
// absurd nesting are one falcon::Error naming the source.
#include <string>

#include <nlohmann/json.hpp>

namespace falcon::model {

nlohmann::json parse_json(const std::string& text, const std::string& source);
nlohmann::json read_json_file(const std::string& path);
// Pretty-printed (2 spaces) with a final newline, replaced atomically.
void write_json_file(const std::string& path, const nlohmann::json& value);

}  // namespace falcon::model
