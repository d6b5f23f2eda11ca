#pragma once
// Name -> Problem. Adding a problem = one file pair + one line in registry.cpp.
#include <string_view>
#include <vector>

#include "falcon/problems/problem.h"

namespace falcon::problems {

// Throws falcon::Error listing the known names when `name` is not one of them.
const Problem& problem_by_name(std::string_view name);
std::vector<std::string_view> problem_names();

}  // namespace falcon::problems
