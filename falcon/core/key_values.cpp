#include "falcon/core/key_values.h"

#include <sstream>

#include "falcon/core/error.h"

namespace falcon {

std::map<std::string, std::string> parse_key_values(const std::string& text, const std::string& what) {
  std::map<std::string, std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
      throw Error(what + ": '" + item + "' is not key=value (example: n=20,count=5,seed=1)");
    }
    const std::string key = item.substr(0, eq);
    if (out.count(key)) throw Error(what + ": key '" + key + "' given twice");
    out[key] = item.substr(eq + 1);
  }
  return out;
}

}  // namespace falcon
