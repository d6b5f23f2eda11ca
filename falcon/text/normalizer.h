#pragma once
// SentencePiece's text normalisation (src/normalizer.cc) for models without a precompiled
// character map: the identity rule of our trained models and of Llama-style models. Invalid
// UTF-8 becomes U+FFFD one byte at a time, user-defined symbols pass through untouched, then the
// NormalizerSpec flags apply (dummy prefix, extra-whitespace removal, ' ' -> U+2581).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "falcon/text/byte_trie.h"

namespace falcon::text {

inline constexpr std::string_view kMetaSpace = "\xE2\x96\x81";  // U+2581, SentencePiece's space

// Longest user-defined symbol at the start of a string (SentencePiece's PrefixMatcher).
class PrefixMatcher {
 public:
  PrefixMatcher() = default;
  explicit PrefixMatcher(const std::vector<std::string_view>& symbols);
  // Length of the longest symbol that prefixes `text`, 0 if none.
  std::size_t match(std::string_view text) const;
  bool empty() const { return trie_.empty(); }

 private:
  ByteTrie trie_;
};

// Bytes of the UTF-8 character at the start of `text` as SentencePiece counts them from the lead
// byte alone (OneCharLen), clipped to the text; 0 for an empty text.
std::size_t utf8_char_length(std::string_view text);
// Length of the valid UTF-8 character at the start of `text` (strict: no overlongs, surrogates or
// code points past U+10FFFF), 0 if invalid. A literal U+FFFD counts as valid.
std::size_t valid_utf8_length(std::string_view text);

struct NormalizerOptions {
  bool add_dummy_prefix = false;
  bool remove_extra_whitespaces = false;
  bool escape_whitespaces = true;
  bool treat_whitespace_as_suffix = false;  // the dummy space goes at the end instead
};

class Normalizer {
 public:
  // `user_symbols` must outlive the normalizer.
  Normalizer(const NormalizerOptions& options, const PrefixMatcher* user_symbols)
      : options_(options), user_symbols_(user_symbols) {}
  std::string normalize(std::string_view input) const;

 private:
  // The normalised form of the unit at the start of `input` and the bytes it consumes.
  std::pair<std::string_view, std::size_t> normalize_prefix(std::string_view input) const;

  NormalizerOptions options_;
  const PrefixMatcher* user_symbols_;
};

}  // namespace falcon::text
