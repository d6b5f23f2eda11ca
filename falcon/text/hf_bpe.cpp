#include "falcon/text/hf_bpe.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <tuple>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

#include "falcon/core/error.h"

namespace falcon::text {
namespace {

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// The Unicode White_Space set, as PCRE2 class items.
constexpr std::string_view kWhiteSpace =
    "\\t\\n\\x0B\\f\\r\\x20\\x85\\xA0\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}";

bool ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// Invalid UTF-8 -> U+FFFD (the text tokenizers sees is a Rust str), then NFC if asked.
std::string clean_text(std::string_view raw, bool nfc) {
  if (ascii(raw)) return std::string(raw);  // valid, and already NFC
  icu::UnicodeString text = icu::UnicodeString::fromUTF8(icu::StringPiece(raw.data(), static_cast<int32_t>(raw.size())));
  if (nfc) {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* normalizer = icu::Normalizer2::getNFCInstance(status);
    if (U_FAILURE(status)) throw Error(std::string("tokenizer: ICU has no NFC normalizer: ") + u_errorName(status));
    text = normalizer->normalize(text, status);
    if (U_FAILURE(status)) throw Error(std::string("tokenizer: NFC failed: ") + u_errorName(status));
  }
  std::string out;
  text.toUTF8String(out);
  return out;
}

std::uint64_t pair_key(int left, int right) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
}

}  // namespace

const std::vector<std::string>& byte_level_alphabet() {
  static const std::vector<std::string> alphabet = [] {
    std::vector<std::string> out(256);
    int next = 256;
    for (int b = 0; b < 256; ++b) {
      const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
      append_utf8(out[static_cast<std::size_t>(b)], static_cast<char32_t>(printable ? b : next++));
    }
    return out;
  }();
  return alphabet;
}

std::string to_byte_level(std::string_view bytes) {
  const auto& alphabet = byte_level_alphabet();
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) out += alphabet[static_cast<unsigned char>(c)];
  return out;
}

bool from_byte_level(std::string_view spelling, std::string& bytes) {
  static const std::unordered_map<std::string, char> reverse = [] {
    std::unordered_map<std::string, char> out;
    const auto& alphabet = byte_level_alphabet();
    for (int b = 0; b < 256; ++b) out.emplace(alphabet[static_cast<std::size_t>(b)], static_cast<char>(b));
    return out;
  }();
  bytes.clear();
  for (std::size_t i = 0; i < spelling.size();) {
    const auto lead = static_cast<unsigned char>(spelling[i]);
    const std::size_t len = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    const auto it = reverse.find(std::string(spelling.substr(i, len)));
    if (it == reverse.end()) return false;
    bytes += it->second;
    i += len;
  }
  return true;
}

std::string with_unicode_whitespace(std::string_view pattern) {
  std::string out;
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      const char e = pattern[++i];
      if (e == 's') {
        out += in_class ? std::string(kWhiteSpace) : "[" + std::string(kWhiteSpace) + "]";
      } else if (e == 'S' && !in_class) {
        out += "[^" + std::string(kWhiteSpace) + "]";
      } else if (e == 'S') {
        throw Error("tokenizer: the split regex has \\S inside a character class, which falcon cannot rewrite to "
                    "Oniguruma's Unicode whitespace");
      } else {
        out += c;
        out += e;
      }
      continue;
    }
    if (c == '[' && !in_class) {
      in_class = true;
      out += c;
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') out += pattern[++i];
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') out += pattern[++i];  // a literal ']' first
      continue;
    }
    if (c == ']' && in_class) in_class = false;
    out += c;
  }
  return out;
}

struct ByteLevelBpe::Regex {
  pcre2_code* code = nullptr;
  ~Regex() { pcre2_code_free(code); }
};

ByteLevelBpe::ByteLevelBpe(const HfBpeSpec& spec, const std::string& origin)
    : origin_(origin), nfc_(spec.nfc), ignore_merges_(spec.ignore_merges), added_(spec.added) {
  const std::string prefix = "tokenizer: '" + origin + "': ";
  constexpr int kMaxId = 1 << 24;  // far above any real vocabulary; keeps a bad id from allocating gigabytes
  int size = 0;
  auto grow = [&](int id, const std::string& what) {
    if (id < 0 || id >= kMaxId) throw Error(prefix + what + " has id " + std::to_string(id) + ", outside [0, 2^24)");
    size = std::max(size, id + 1);
  };
  for (const auto& [spelling, id] : spec.vocab) grow(id, "vocab token '" + spelling + "'");
  for (const auto& token : spec.added) grow(token.id, "added token '" + token.content + "'");
  spelling_.resize(static_cast<std::size_t>(size));
  bytes_.resize(static_cast<std::size_t>(size));
  special_.assign(static_cast<std::size_t>(size), true);  // ids the file leaves without a token
  std::vector<bool> taken(static_cast<std::size_t>(size), false);
  auto claim = [&](int id, const std::string& what) {
    if (taken[static_cast<std::size_t>(id)]) throw Error(prefix + "id " + std::to_string(id) + " is given twice (" + what + ")");
    taken[static_cast<std::size_t>(id)] = true;
  };
  for (const auto& [spelling, id] : spec.vocab) {
    claim(id, "vocab token '" + spelling + "'");
    const auto i = static_cast<std::size_t>(id);
    spelling_[i] = spelling;
    special_[i] = false;
    // A spelling outside the alphabet stands for its own UTF-8, as tokenizers' decoder keeps it.
    if (!from_byte_level(spelling, bytes_[i])) bytes_[i] = spelling;
    ids_.emplace(spelling, id);
  }
  for (const auto& token : spec.added) {
    if (token.content.empty()) throw Error(prefix + "added token " + std::to_string(token.id) + " is empty");
    const auto i = static_cast<std::size_t>(token.id);
    if (!ids_.count(token.content) || ids_.at(token.content) != token.id) {
      claim(token.id, "added token '" + token.content + "'");
      spelling_[i] = token.content;
      ids_.emplace(token.content, token.id);
    }
    special_[i] = token.special;
    bytes_[i] = token.special ? "" : token.content;
  }
  std::stable_sort(added_.begin(), added_.end(),
                   [](const HfAddedToken& a, const HfAddedToken& b) { return a.content.size() > b.content.size(); });
  for (std::size_t k = 0; k < added_.size(); ++k)
    added_by_first_byte_[static_cast<unsigned char>(added_[k].content[0])].push_back(static_cast<int>(k));

  const auto& alphabet = byte_level_alphabet();
  for (int b = 0; b < 256; ++b) {
    const auto it = ids_.find(alphabet[static_cast<std::size_t>(b)]);
    if (it == ids_.end())
      throw Error(prefix + "byte " + std::to_string(b) + " ('" + alphabet[static_cast<std::size_t>(b)] +
                  "') has no token: not a byte-level BPE vocabulary");
    byte_ids_[b] = it->second;
  }
  merges_.reserve(spec.merges.size());
  for (std::size_t rank = 0; rank < spec.merges.size(); ++rank) {
    const auto& [left, right] = spec.merges[rank];
    const std::string merged = left + right;
    const auto l = ids_.find(left), r = ids_.find(right), m = ids_.find(merged);
    if (l == ids_.end() || r == ids_.end() || m == ids_.end())
      throw Error(prefix + "merge " + std::to_string(rank) + " ('" + left + "' '" + right + "') names a token that is "
                  "not in the vocabulary");
    merges_.emplace(pair_key(l->second, r->second), std::make_pair(static_cast<int>(rank), m->second));
  }

  if (!spec.split_regex.empty()) {
    const std::string pattern = with_unicode_whitespace(spec.split_regex);
    int error = 0;
    PCRE2_SIZE offset = 0;
    regex_ = std::make_unique<Regex>();
    regex_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), PCRE2_UTF | PCRE2_UCP,
                                 &error, &offset, nullptr);
    if (!regex_->code) {
      PCRE2_UCHAR message[256];
      pcre2_get_error_message(error, message, sizeof message);
      throw Error(prefix + "the pre-tokenizer's regex does not compile at offset " + std::to_string(offset) + ": " +
                  reinterpret_cast<const char*>(message));
    }
    pcre2_jit_compile(regex_->code, PCRE2_JIT_COMPLETE);  // a speed-up only: without JIT it still matches
  }
}

ByteLevelBpe::~ByteLevelBpe() = default;

int ByteLevelBpe::find(std::string_view spelling) const {
  const auto it = ids_.find(std::string(spelling));
  return it == ids_.end() ? -1 : it->second;
}

std::vector<int> ByteLevelBpe::encode(std::string_view text) const {
  std::vector<int> ids;
  std::size_t piece_start = 0, i = 0;
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
  while (i < text.size()) {
    const HfAddedToken* hit = nullptr;
    for (const int k : added_by_first_byte_[static_cast<unsigned char>(text[i])]) {  // longest first
      const HfAddedToken& token = added_[static_cast<std::size_t>(k)];
      if (text.compare(i, token.content.size(), token.content) == 0) {
        hit = &token;
        break;
      }
    }
    if (!hit) {
      ++i;
      continue;
    }
    std::size_t piece_end = i;
    if (hit->lstrip)
      while (piece_end > piece_start && is_space(text[piece_end - 1])) --piece_end;
    encode_piece(text.substr(piece_start, piece_end - piece_start), ids);
    ids.push_back(hit->id);
    i += hit->content.size();
    if (hit->rstrip)
      while (i < text.size() && is_space(text[i])) ++i;
    piece_start = i;
  }
  encode_piece(text.substr(piece_start), ids);
  return ids;
}

void ByteLevelBpe::encode_piece(std::string_view raw, std::vector<int>& ids) const {
  if (raw.empty()) return;
  const std::string text = clean_text(raw, nfc_);
  if (!regex_) {
    encode_word(text, ids);
    return;
  }
  pcre2_match_data* match = pcre2_match_data_create_from_pattern(regex_->code, nullptr);
  const auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  std::size_t offset = 0, gap_start = 0;
  while (offset <= text.size()) {
    const int rc = pcre2_match(regex_->code, subject, text.size(), offset, PCRE2_NO_UTF_CHECK, match, nullptr);
    if (rc < 0) break;  // no more matches (PCRE2_ERROR_NOMATCH); a matching limit ends the same way
    const PCRE2_SIZE* span = pcre2_get_ovector_pointer(match);
    const std::size_t begin = span[0], end = span[1];
    if (begin > gap_start) encode_word(std::string_view(text).substr(gap_start, begin - gap_start), ids);
    if (end > begin) {
      encode_word(std::string_view(text).substr(begin, end - begin), ids);
      offset = gap_start = end;
    } else {  // an empty match: step over one character
      gap_start = begin;
      offset = begin + 1;
      while (offset < text.size() && (static_cast<unsigned char>(text[offset]) & 0xC0) == 0x80) ++offset;
      if (begin == text.size()) break;
    }
  }
  pcre2_match_data_free(match);
  if (gap_start < text.size()) encode_word(std::string_view(text).substr(gap_start), ids);
}

void ByteLevelBpe::encode_word(std::string_view word, std::vector<int>& ids) const {
  if (word.empty()) return;
  if (ignore_merges_) {
    if (const auto it = ids_.find(to_byte_level(word)); it != ids_.end()) {
      ids.push_back(it->second);
      return;
    }
  }
  // The symbols as a linked list; candidate merges in a heap by (rank, position), checked when
  // popped against the pair now there (tokenizers' Word::merge_all).
  struct Symbol {
    int id, prev, next;
    bool alive;
  };
  std::vector<Symbol> symbols;
  symbols.reserve(word.size());
  for (std::size_t k = 0; k < word.size(); ++k)
    symbols.push_back({byte_ids_[static_cast<unsigned char>(word[k])], static_cast<int>(k) - 1,
                       k + 1 < word.size() ? static_cast<int>(k) + 1 : -1, true});
  using Candidate = std::tuple<int, int, int>;  // rank, position, merged id
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap;
  auto offer = [&](int pos) {
    const int next = symbols[static_cast<std::size_t>(pos)].next;
    if (next < 0) return;
    const auto it = merges_.find(pair_key(symbols[static_cast<std::size_t>(pos)].id, symbols[static_cast<std::size_t>(next)].id));
    if (it != merges_.end()) heap.emplace(it->second.first, pos, it->second.second);
  };
  for (int k = 0; k + 1 < static_cast<int>(symbols.size()); ++k) offer(k);
  while (!heap.empty()) {
    const auto [rank, pos, merged] = heap.top();
    heap.pop();
    Symbol& left = symbols[static_cast<std::size_t>(pos)];
    if (!left.alive || left.next < 0) continue;
    Symbol& right = symbols[static_cast<std::size_t>(left.next)];
    const auto it = merges_.find(pair_key(left.id, right.id));
    if (it == merges_.end() || it->second.first != rank) continue;  // stale: the pair has changed
    left.id = merged;
    right.alive = false;
    left.next = right.next;
    if (right.next >= 0) symbols[static_cast<std::size_t>(right.next)].prev = pos;
    if (left.prev >= 0) offer(left.prev);
    offer(pos);
  }
  for (int k = 0; k >= 0; k = symbols[static_cast<std::size_t>(k)].next) ids.push_back(symbols[static_cast<std::size_t>(k)].id);
}

}  // namespace falcon::text
