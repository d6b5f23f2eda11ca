#pragma once
// Style name -> Format. Adding a text style = one file pair (format.h's interface), its grammars
// in grammars/, and one line in registry.cpp.
#include <string>
#include <string_view>

#include "falcon/formats/format.h"

namespace falcon::formats {

// The format named `name`; null for "paper" (the problems' own text) and for an unknown name.
const Format* format_by_name(std::string_view name);
// "paper, compact, compact_echo, ...": every style text.style accepts.
std::string known_styles();

}  // namespace falcon::formats
