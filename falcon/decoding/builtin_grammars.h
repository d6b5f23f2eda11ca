#pragma once
// The grammars of grammars/<problem>.bnf, embedded into the library at build time so no
// program depends on its working directory. A grammar file elsewhere loads with Grammar::load.
#include <string>
#include <string_view>
#include <vector>

#include "falcon/decoding/grammar.h"

namespace falcon::decoding {

std::vector<std::string> builtin_grammar_names();  // sorted: "cvrp", "jssp", ...
// Throws falcon::Error listing the names when `name` is not built in.
std::string_view builtin_grammar_text(std::string_view name);
// Parsed once per process (thread-safe); source() is "grammars/<name>.bnf".
const Grammar& builtin_grammar(std::string_view name);

}  // namespace falcon::decoding
