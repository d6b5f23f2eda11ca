#include "falcon/scoring/text_style_file.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "falcon/core/atomic_file.h"
#include "falcon/core/error.h"
#include "falcon/formats/registry.h"
#include "falcon/text/chat_template.h"

namespace falcon::scoring {

void write_text_style(const std::string& dir, const formats::TextStyle& style) {
  nlohmann::ordered_json j;
  j["style"] = style.name;
  j["candidates"] = style.candidates;
  for (const auto& p : style.per_problem) j["problems"][p.problem] = {{"style", p.name}, {"candidates", p.candidates}};
  if (style.chat != "none") j["chat"] = style.chat;
  write_file_atomic(dir + "/" + kTextStyleFile, j.dump(2) + "\n");
}

formats::TextStyle read_text_style(const std::string& dir) {
  const std::string path = dir + "/" + kTextStyleFile;
  if (!std::filesystem::exists(path)) return {};
  const auto j = nlohmann::json::parse(read_file(path), nullptr, /*allow_exceptions=*/false);
  auto one_style = [](const nlohmann::json& o) {  // {"style": name, "candidates": k}
    return o.is_object() && o.contains("style") && o["style"].is_string() &&
           (!o.contains("candidates") || o["candidates"].is_number_integer());
  };
  bool ok = one_style(j) && (!j.contains("problems") || j["problems"].is_object()) &&
            (!j.contains("chat") || j["chat"].is_string());
  if (ok && j.contains("problems"))
    for (const auto& [problem, own] : j["problems"].items()) ok = ok && one_style(own);
  if (!ok)
    throw Error(path + ": malformed (expected {\"style\": one of " + formats::known_styles() + ", \"candidates\": k, "
                       "optionally \"problems\": {\"op\": {\"style\": ..., \"candidates\": k}}, \"chat\": \"chatml\"}); rewrite it or delete it to read the model as the paper's style");
  auto style = formats::make_text_style(j["style"].get<std::string>(), j.value("candidates", 0), path);
  if (j.contains("problems"))
    for (const auto& [problem, own] : j["problems"].items())
      formats::set_problem_text_style(style, problem, own["style"].get<std::string>(), own.value("candidates", 0),
                                       path + ": problems." + problem);
  if (j.contains("chat")) style.chat = text::chat_template(j["chat"].get<std::string>(), path + ": chat").name;
  return style;
}

}  // namespace falcon::scoring
