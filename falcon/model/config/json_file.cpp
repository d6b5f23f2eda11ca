#include "falcon/model/config/json_file.h"

#include <set>
#include <vector>

#include "falcon/core/atomic_file.h"
#include "falcon/core/error.h"

namespace falcon::model {

using nlohmann::json;

nlohmann::json parse_json(const std::string& text, const std::string& source) {
  constexpr int kMaxDepth = 64;
  std::vector<std::set<std::string>> keys;  // keys seen in each open object
  std::string duplicate;
  bool too_deep = false;
  const json::parser_callback_t cb = [&](int depth, json::parse_event_t event, json& parsed) {
    if (depth > kMaxDepth) too_deep = true;
    if (event == json::parse_event_t::object_start) keys.emplace_back();
    else if (event == json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
    else if (event == json::parse_event_t::key && !keys.empty() && parsed.is_string() &&
             !keys.back().insert(parsed.get<std::string>()).second && duplicate.empty())
      duplicate = parsed.get<std::string>();
    return !too_deep;
  };
  json value;
  try {
    value = json::parse(text, cb);
  } catch (const json::exception& e) {
    throw Error(source + ": not valid JSON (" + e.what() + ")");
  }
  if (too_deep) throw Error(source + ": JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
  if (!duplicate.empty()) throw Error(source + ": key \"" + duplicate + "\" appears twice in one object");
  return value;
}

nlohmann::json read_json_file(const std::string& path) { return parse_json(read_file(path), path); }

void write_json_file(const std::string& path, const nlohmann::json& value) {
  write_file_atomic(path, value.dump(2) + "\n");
}

}  // namespace falcon::model
