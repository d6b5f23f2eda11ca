#include "falcon/text/normalizer.h"

#include <algorithm>

namespace falcon::text {
namespace {

constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";  // U+FFFD

bool is_trail_byte(unsigned char c) { return (c & 0xC0) == 0x80; }
bool is_valid_code_point(char32_t c) { return c < 0xD800 || (c >= 0xE000 && c <= 0x10FFFF); }

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && std::string_view(s).substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

PrefixMatcher::PrefixMatcher(const std::vector<std::string_view>& symbols) {
  for (auto s : symbols)
    if (!s.empty()) trie_.insert(s, 1);
}

std::size_t PrefixMatcher::match(std::string_view text) const {
  std::size_t longest = 0;
  int node = ByteTrie::kRoot;
  for (std::size_t i = 0; i < text.size(); ++i) {
    node = trie_.child(node, static_cast<unsigned char>(text[i]));
    if (node < 0) break;
    if (trie_.value(node) >= 0) longest = i + 1;
  }
  return longest;
}

std::size_t utf8_char_length(std::string_view text) {
  if (text.empty()) return 0;
  static constexpr unsigned char kLength[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
  return std::min<std::size_t>(kLength[static_cast<unsigned char>(text[0]) >> 4], text.size());
}

// SentencePiece's DecodeUTF8 + IsValidDecodeUTF8 (src/util.cc).
std::size_t valid_utf8_length(std::string_view text) {
  if (text.empty()) return 0;
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  if (s[0] < 0x80) return 1;
  if (n >= 2 && (s[0] & 0xE0) == 0xC0) {
    const char32_t c = ((s[0] & 0x1Fu) << 6) | (s[1] & 0x3Fu);
    return is_trail_byte(s[1]) && c >= 0x80 && is_valid_code_point(c) ? 2 : 0;
  }
  if (n >= 3 && (s[0] & 0xF0) == 0xE0) {
    const char32_t c = ((s[0] & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
    return is_trail_byte(s[1]) && is_trail_byte(s[2]) && c >= 0x800 && is_valid_code_point(c) ? 3 : 0;
  }
  if (n >= 4 && (s[0] & 0xF8) == 0xF0) {
    const char32_t c = ((s[0] & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
    return is_trail_byte(s[1]) && is_trail_byte(s[2]) && is_trail_byte(s[3]) && c >= 0x10000 &&
                   is_valid_code_point(c)
               ? 4
               : 0;
  }
  return 0;
}

std::pair<std::string_view, std::size_t> Normalizer::normalize_prefix(std::string_view input) const {
  if (user_symbols_ != nullptr && !user_symbols_->empty())
    if (std::size_t length = user_symbols_->match(input)) return {input.substr(0, length), length};
  if (std::size_t length = valid_utf8_length(input)) return {input.substr(0, length), length};
  return {kReplacementChar, 1};  // one malformed byte
}

// Follows Normalizer::Normalize step by step (without the offsets SentencePiece also records).
std::string Normalizer::normalize(std::string_view input) const {
  std::string out;
  if (input.empty()) return out;
  if (options_.remove_extra_whitespaces) {  // leading spaces
    while (!input.empty()) {
      auto [unit, consumed] = normalize_prefix(input);
      if (unit != " ") break;
      input.remove_prefix(consumed);
    }
    if (input.empty()) return out;
  }
  out.reserve(input.size() * 3 / 2 + kMetaSpace.size());
  auto add_space = [&] {
    if (options_.escape_whitespaces)
      out += kMetaSpace;
    else
      out += ' ';
  };
  if (!options_.treat_whitespace_as_suffix && options_.add_dummy_prefix) add_space();

  bool prev_space = options_.remove_extra_whitespaces;
  while (!input.empty()) {
    auto [unit, consumed] = normalize_prefix(input);
    while (prev_space && !unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
    if (!unit.empty()) {
      for (char c : unit) {
        if (options_.escape_whitespaces && c == ' ')
          out += kMetaSpace;
        else
          out += c;
      }
      prev_space = unit.back() == ' ';
    }
    input.remove_prefix(consumed);
    if (!options_.remove_extra_whitespaces) prev_space = false;
  }
  if (options_.remove_extra_whitespaces) {  // trailing spaces
    const std::string_view space = options_.escape_whitespaces ? kMetaSpace : std::string_view(" ");
    while (ends_with(out, space)) out.resize(out.size() - space.size());
  }
  if (options_.treat_whitespace_as_suffix && options_.add_dummy_prefix) add_space();
  return out;
}

}  // namespace falcon::text
