#include "falcon/eval/text_style_file.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "falcon/core/atomic_file.h"
#include "falcon/core/error.h"

namespace falcon::eval {

void write_text_style(const std::string& dir, const problems::TextStyle& style) {
  nlohmann::ordered_json j;
  j["style"] = style.name;
  j["candidates"] = style.candidates;
  write_file_atomic(dir + "/" + kTextStyleFile, j.dump(2) + "\n");
}

problems::TextStyle read_text_style(const std::string& dir) {
  const std::string path = dir + "/" + kTextStyleFile;
  if (!std::filesystem::exists(path)) return {};
  const auto j = nlohmann::json::parse(read_file(path), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("style") || !j["style"].is_string() ||
      (j.contains("candidates") && !j["candidates"].is_number_integer()))
    throw Error(path + ": malformed (expected {\"style\": \"paper\" | \"compact\" | \"compact_echo\" | \"compact_state\" | \"compact_ranked\" | \"compact_insert\", \"candidates\": k}); "
                       "rewrite it or delete it to read the model as the paper's style");
  return problems::make_text_style(j["style"].get<std::string>(), j.value("candidates", 0), path);
}

}  // namespace falcon::eval
