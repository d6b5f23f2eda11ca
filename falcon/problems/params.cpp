#include "falcon/problems/params.h"

#include <cstdlib>

#include "falcon/core/error.h"

namespace falcon::problems {

ParamReader::ParamReader(const GenerateOptions& options, std::string problem)
    : options_(options), problem_(std::move(problem)) {}

bool ParamReader::has(const std::string& key) const { return options_.params.count(key) > 0; }

std::string ParamReader::get_string(const std::string& key, const std::string& fallback) {
  used_.insert(key);
  auto it = options_.params.find(key);
  return it == options_.params.end() ? fallback : it->second;
}

int ParamReader::get_int(const std::string& key, int fallback) {
  const std::string text = get_string(key, "");
  if (text.empty()) return fallback;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (*end != '\0' || v < -1000000000L || v > 1000000000L) {
    throw Error(problem_ + " generator: '" + key + "=" + text + "' is not an integer");
  }
  return static_cast<int>(v);
}

double ParamReader::get_double(const std::string& key, double fallback) {
  const std::string text = get_string(key, "");
  if (text.empty()) return fallback;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0') throw Error(problem_ + " generator: '" + key + "=" + text + "' is not a number");
  return v;
}

void ParamReader::finish() const {
  for (const auto& [key, value] : options_.params) {
    if (used_.count(key) == 0) {
      std::string known;
      for (const auto& k : used_) known += (known.empty() ? "" : ", ") + k;
      throw Error(problem_ + " generator: unknown key '" + key + "' (known keys: n, distribution" +
                  (known.empty() ? "" : ", " + known) + ")");
    }
  }
}

}  // namespace falcon::problems
