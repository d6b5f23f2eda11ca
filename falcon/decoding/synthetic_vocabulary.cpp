// Vocabulary::synthetic: a large vocabulary of plausible pieces without a trained model.
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"
#include "falcon/decoding/vocabulary.h"

namespace falcon::decoding {

Vocabulary Vocabulary::synthetic(int size, std::uint64_t seed) {
  if (size < 300) throw Error("synthetic vocabulary: size " + std::to_string(size) + " is below 300");
  std::vector<std::string> tokens{"", "", "", ""};  // pad, unk, bos, eos
  std::vector<bool> special{true, true, true, true};
  std::set<std::string> seen;
  auto add = [&](const std::string& piece) {
    if (static_cast<int>(tokens.size()) < size && seen.insert(piece).second) {
      tokens.push_back(piece);
      special.push_back(false);
    }
  };
  for (int b = 0; b < 256; ++b) add(std::string(1, static_cast<char>(b)));
  for (const char* piece : {"Route", "Routes", "Set", "Order", "Schedule", "Objective", ": [", ": [[", "], ",
                            "], [", "]], ", "], Objective: ", "]], Objective: ", ", ", " [", "[[", "]]", ".", ".0",
                            ".00", ".5", "Route: [", "Objective: "})
    add(piece);
  // Form by form, so a smaller vocabulary still has every plain number.
  for (const auto& [before, after] : std::vector<std::pair<std::string, std::string>>{
           {"", ""}, {" ", ""}, {"", ","}, {", ", ""}, {"", "]"}, {"[", ""}, {"", "],"}, {",", ""}, {".", ""}})
    for (int v = 0; v < 10000; ++v) add(before + std::to_string(v) + after);
  Rng rng(seed);
  static const std::string kAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.:;[]()-_";
  while (static_cast<int>(tokens.size()) < size) {
    std::string piece(static_cast<std::size_t>(rng.uniform_int(2, 8)), ' ');
    for (char& c : piece) c = kAlphabet[rng.uniform_int(0, static_cast<int>(kAlphabet.size()) - 1)];
    add(piece);
  }
  return Vocabulary(std::move(tokens), std::move(special), 3);
}

}  // namespace falcon::decoding
