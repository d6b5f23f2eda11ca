#pragma once
// "n=20,count=5,seed=1" -> map. Errors name the offending item.
#include <map>
#include <string>

namespace falcon {

std::map<std::string, std::string> parse_key_values(const std::string& text, const std::string& what);

}  // namespace falcon
