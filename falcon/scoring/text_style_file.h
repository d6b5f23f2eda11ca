#pragma once
// The text style a model was trained in, stored beside its tokenizer.model as text_style.json
// ({"style": "compact", "candidates": 4}, and "chat": "chatml" for an instruct format), so the
// evaluator writes the prompts the model knows.
// A directory without the file (a pretrained Hugging Face model) reads as the paper's style.
#include <string>

#include "falcon/formats/text_style.h"

namespace falcon::scoring {

inline constexpr const char* kTextStyleFile = "text_style.json";

void write_text_style(const std::string& dir, const formats::TextStyle& style);  // atomic
// Throws falcon::Error naming the file when it exists but is malformed.
formats::TextStyle read_text_style(const std::string& dir);

}  // namespace falcon::scoring
