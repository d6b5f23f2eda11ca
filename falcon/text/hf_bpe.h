#pragma once
// Hugging Face's byte-level BPE, as the `tokenizers` library runs a tokenizer.json whose model
// is BPE over the ByteLevel alphabet (GPT-2, Llama-3, Qwen2 / Qwen2.5 / Qwen3), id for id:
//
//   1. added tokens are cut out of the text first (leftmost, then longest), each one id;
//   2. each piece between them: invalid UTF-8 -> U+FFFD, then the normalizer (none or NFC);
//   3. the pre-tokenizer's split regex cuts it into words (matches and the gaps between them);
//   4. each word's bytes become characters (GPT-2's byte -> unicode map: ' ' -> 'Ġ');
//   5. merges by rank: the adjacent pair with the lowest rank, leftmost on ties, until none
//      applies (with ignore_merges, a word that is itself in the vocabulary is one token).
//
// The regex runs in PCRE2 (UTF + UCP). tokenizers compiles it with Oniguruma, whose \s and \S
// are Unicode White_Space; PCRE2's differ by version, so \s and \S are rewritten to that set.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace falcon::text {

struct HfAddedToken {
  int id = -1;
  std::string content;
  bool special = false;  // skipped by decode; masked by the grammar like a control token
  bool lstrip = false;   // swallows the whitespace before it
  bool rstrip = false;   // and after it
};

// The parts of a tokenizer.json that encoding depends on (hf_tokenizer.cpp reads them).
struct HfBpeSpec {
  std::vector<std::pair<std::string, int>> vocab;           // byte-level spelling -> id
  std::vector<std::pair<std::string, std::string>> merges;  // by rank, lowest first
  std::vector<HfAddedToken> added;
  bool nfc = false;
  std::string split_regex;  // the pre-tokenizer's; empty: each piece is one word
  bool ignore_merges = false;
};

// GPT-2's bytes_to_unicode: printable Latin-1 bytes map to themselves, the other 68 to
// U+0100.. in byte order. The UTF-8 of each byte's character.
const std::vector<std::string>& byte_level_alphabet();
// A byte string in the byte-level alphabet ("a b" -> "aĠb"), and back; back() returns false
// when some character is outside the alphabet.
std::string to_byte_level(std::string_view bytes);
bool from_byte_level(std::string_view spelling, std::string& bytes);

// Oniguruma's \s / \S in a PCRE2 pattern: Unicode White_Space, inside classes too.
std::string with_unicode_whitespace(std::string_view pattern);

class ByteLevelBpe {
 public:
  // Throws falcon::Error starting with "tokenizer: '<origin>': " when a merge names a token not in
  // the vocabulary, an id repeats, a byte has no token, or the regex does not compile.
  ByteLevelBpe(const HfBpeSpec& spec, const std::string& origin);
  ~ByteLevelBpe();
  ByteLevelBpe(const ByteLevelBpe&) = delete;
  ByteLevelBpe& operator=(const ByteLevelBpe&) = delete;

  std::vector<int> encode(std::string_view text) const;

  int size() const { return static_cast<int>(spelling_.size()); }  // highest id + 1
  const std::string& spelling(int id) const { return spelling_[static_cast<std::size_t>(id)]; }
  const std::string& bytes(int id) const { return bytes_[static_cast<std::size_t>(id)]; }
  bool special(int id) const { return special_[static_cast<std::size_t>(id)]; }
  int find(std::string_view spelling) const;  // -1 when unknown

 private:
  struct Regex;
  void encode_piece(std::string_view raw, std::vector<int>& ids) const;
  void encode_word(std::string_view word, std::vector<int>& ids) const;

  std::string origin_;
  bool nfc_;
  bool ignore_merges_;
  std::unique_ptr<Regex> regex_;
  std::vector<std::string> spelling_;  // by id; "" where the file has no token
  std::vector<std::string> bytes_;
  std::vector<bool> special_;
  std::unordered_map<std::string, int> ids_;                         // spelling -> id
  std::unordered_map<std::uint64_t, std::pair<int, int>> merges_;    // (left, right) -> (rank, id)
  int byte_ids_[256];
  std::vector<HfAddedToken> added_;                 // longest first
  std::vector<int> added_by_first_byte_[256];        // indices into added_, longest first
};

}  // namespace falcon::text
