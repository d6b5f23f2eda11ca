#include "falcon/text/chat_template.h"

#include "falcon/core/error.h"

namespace falcon::text {
namespace {

const std::vector<ChatTemplate>& templates() {
  static const std::vector<ChatTemplate> all = {
      {"none", "", "\n", "", true},
      {"chatml", "<|im_start|>user\n", "<|im_end|>\n<|im_start|>assistant\n", "<|im_end|>", false},
      {"llama3", "<|start_header_id|>user<|end_header_id|>\n\n", "<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n",
       "<|eot_id|>", true},
  };
  return all;
}

}  // namespace

const ChatTemplate& chat_template(std::string_view name, const std::string& where) {
  for (const auto& t : templates())
    if (t.name == name) return t;
  std::string known;
  for (const auto& t : templates()) known += (known.empty() ? "" : ", ") + t.name;
  throw Error(where + ": unknown chat template '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> chat_template_names() {
  std::vector<std::string> names;
  for (const auto& t : templates()) names.push_back(t.name);
  return names;
}

}  // namespace falcon::text
