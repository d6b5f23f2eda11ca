#pragma once
// A solution grammar written in BNF (dialect in docs/grammars.md): rules `name ::= expr`,
// string literals, byte classes, grouping, `* + ?`, `|`, and the special terminal `<index>`
// whose range comes from the instance (GrammarSpec::first_index/last_index). Parsing only
// checks the text; byte_dfa.h turns a Grammar plus an index range into an automaton.
#include <bitset>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace falcon::decoding {

using ByteSet = std::bitset<256>;

struct Expr {
  enum class Kind {
    kBytes,   // one byte from `bytes` (a class, or one character of a literal)
    kRef,     // the nonterminal `rule`
    kIndex,   // <index>: a decimal in [first, last] without leading zeros
    kSeq,     // children in order (empty = the empty string)
    kAlt,     // one of children
    kRepeat,  // children[0] repeated min..max times (max = -1: unbounded)
  };
  Kind kind = Kind::kSeq;
  ByteSet bytes;
  int rule = -1;          // kRef: index into Grammar::rules()
  std::string name;       // kRef: the rule's name as written
  int min = 0;
  int max = -1;
  std::vector<Expr> children;
  int line = 0;  // where it was written, for errors
};

struct Rule {
  std::string name;
  Expr body;
  int line = 0;
};

class Grammar {
 public:
  // Throws falcon::Error "SOURCE:LINE: what" on malformed text, a rule defined twice or a
  // reference to an undefined rule. The first rule is the start symbol.
  static Grammar parse(std::string_view text, const std::string& source);
  // Reads and parses a .bnf file; `source` in errors is the path.
  static Grammar load(const std::string& path);

  const std::string& source() const { return source_; }  // file path or "builtin:<name>"
  const std::vector<Rule>& rules() const { return rules_; }
  int start() const { return 0; }
  // FNV-1a of the grammar text: cache key part, so an edited file is a different grammar.
  std::uint64_t fingerprint() const { return fingerprint_; }

 private:
  std::string source_;
  std::vector<Rule> rules_;
  std::uint64_t fingerprint_ = 0;
};

// FNV-1a, 64 bit; also the vocabulary fingerprint.
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t seed = 14695981039346656037ull);

}  // namespace falcon::decoding
