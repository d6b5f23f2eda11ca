#include "falcon/decoding/builtin_grammars.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "falcon/core/error.h"

namespace falcon::decoding {
namespace embedded {
struct EmbeddedFile {
  const char* name;
  const char* data;
  std::size_t size;
};
extern const EmbeddedFile kEmbeddedFiles[];  // generated from grammars/*.bnf by cmake/embed_files.cmake
extern const std::size_t kNumEmbeddedFiles;
}  // namespace embedded

std::vector<std::string> builtin_grammar_names() {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < embedded::kNumEmbeddedFiles; ++i) names.emplace_back(embedded::kEmbeddedFiles[i].name);
  std::sort(names.begin(), names.end());
  return names;
}

std::string_view builtin_grammar_text(std::string_view name) {
  for (std::size_t i = 0; i < embedded::kNumEmbeddedFiles; ++i)
    if (name == embedded::kEmbeddedFiles[i].name) return {embedded::kEmbeddedFiles[i].data, embedded::kEmbeddedFiles[i].size};
  std::string known;
  for (const auto& n : builtin_grammar_names()) known += (known.empty() ? "" : ", ") + n;
  throw Error("grammar: no built-in grammar '" + std::string(name) + "' (known: " + known +
              "); load a .bnf file by path instead");
}

const Grammar& builtin_grammar(std::string_view name) {
  static std::mutex mutex;
  static std::map<std::string, Grammar, std::less<>> parsed;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = parsed.find(name);
  if (it == parsed.end()) {
    const std::string key(name);
    it = parsed.emplace(key, Grammar::parse(builtin_grammar_text(name), "grammars/" + key + ".bnf")).first;
  }
  return it->second;  // std::map nodes are stable, so the reference outlives the lock
}

}  // namespace falcon::decoding
