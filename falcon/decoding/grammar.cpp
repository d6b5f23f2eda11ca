#include "falcon/decoding/grammar.h"

#include <fstream>
#include <map>
#include <sstream>

#include "falcon/core/error.h"

namespace falcon::decoding {
namespace {

struct Token {
  enum class Kind { kIdent, kDefine, kBytes, kLiteral, kSpecial, kLParen, kRParen, kBar, kStar, kPlus, kQuestion, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;  // identifier, literal bytes or special name
  ByteSet bytes;     // byte class
  int line = 0;
};

bool ident_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9') || c == '-'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      skip_blanks();
      Token t;
      t.line = line_;
      if (pos_ >= text_.size()) {
        out.push_back(t);
        return out;
      }
      const char c = text_[pos_];
      if (ident_start(c)) {
        t.kind = Token::Kind::kIdent;
        while (pos_ < text_.size() && ident_char(text_[pos_])) t.text += text_[pos_++];
      } else if (text_.compare(pos_, 3, "::=") == 0 || text_.compare(pos_, 2, "->") == 0) {
        t.kind = Token::Kind::kDefine;
        pos_ += text_[pos_] == ':' ? 3 : 2;
      } else if (c == '"') {
        t.kind = Token::Kind::kLiteral;
        t.text = literal();
      } else if (c == '[') {
        t.kind = Token::Kind::kBytes;
        t.bytes = byte_class();
      } else if (c == '<') {
        t.kind = Token::Kind::kSpecial;
        ++pos_;
        while (pos_ < text_.size() && ident_char(text_[pos_])) t.text += text_[pos_++];
        if (pos_ >= text_.size() || text_[pos_] != '>') fail("expected '>' to close '<" + t.text + "'");
        ++pos_;
      } else {
        static const std::string kPunct = "()|*+?";
        const auto k = kPunct.find(c);
        if (k == std::string::npos) fail(std::string("unexpected character '") + c + "'");
        static const Token::Kind kKinds[] = {Token::Kind::kLParen, Token::Kind::kRParen, Token::Kind::kBar,
                                             Token::Kind::kStar, Token::Kind::kPlus, Token::Kind::kQuestion};
        t.kind = kKinds[k];
        ++pos_;
      }
      out.push_back(std::move(t));
    }
  }

 private:
  void skip_blanks() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  // One possibly escaped byte inside a literal or class; `close` ends the construct.
  unsigned char escaped_byte(char close) {
    if (pos_ >= text_.size() || text_[pos_] == '\n') fail(std::string("unterminated ") + (close == '"' ? "string" : "byte class"));
    const char c = text_[pos_++];
    if (c != '\\') return static_cast<unsigned char>(c);
    if (pos_ >= text_.size()) fail("unterminated escape");
    const char e = text_[pos_++];
    switch (e) {
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case '\\': return '\\';
      case '"': return '"';
      case ']': return ']';
      case '[': return '[';
      case '-': return '-';
      case '^': return '^';
      case 'x': {
        const int hi = pos_ < text_.size() ? hex_value(text_[pos_]) : -1;
        const int lo = pos_ + 1 < text_.size() ? hex_value(text_[pos_ + 1]) : -1;
        if (hi < 0 || lo < 0) fail("\\x needs two hex digits");
        pos_ += 2;
        return static_cast<unsigned char>(hi * 16 + lo);
      }
      default: fail(std::string("unknown escape '\\") + e + "' (known: \\n \\t \\r \\\\ \\\" \\] \\[ \\- \\^ \\xHH)");
    }
  }

  std::string literal() {
    ++pos_;  // opening quote
    std::string out;
    while (pos_ >= text_.size() || text_[pos_] != '"') out += static_cast<char>(escaped_byte('"'));
    ++pos_;
    return out;
  }

  ByteSet byte_class() {
    ++pos_;  // '['
    bool negate = false;
    if (pos_ < text_.size() && text_[pos_] == '^') {
      negate = true;
      ++pos_;
    }
    ByteSet set;
    bool any = false;
    while (pos_ >= text_.size() || text_[pos_] != ']') {
      const unsigned char lo = escaped_byte(']');
      unsigned char hi = lo;
      if (pos_ + 1 < text_.size() && text_[pos_] == '-' && text_[pos_ + 1] != ']') {
        ++pos_;
        hi = escaped_byte(']');
        if (hi < lo) fail("byte class range is backwards");
      }
      for (int b = lo; b <= hi; ++b) set.set(b);
      any = true;
    }
    ++pos_;
    if (!any) fail("empty byte class '[]'");
    return negate ? ~set : set;
  }

  [[noreturn]] void fail(const std::string& what) const { throw input_error(source_, line_, what); }

  std::string_view text_;
  const std::string& source_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

class Parser {
 public:
  Parser(std::vector<Token> tokens, const std::string& source) : t_(std::move(tokens)), source_(source) {}

  std::vector<Rule> run() {
    std::vector<Rule> rules;
    std::map<std::string, int> line_of;
    while (peek().kind != Token::Kind::kEnd) {
      if (!starts_rule()) fail(peek().line, "expected a rule 'name ::= ...'");
      Rule rule;
      rule.line = peek().line;
      rule.name = t_[p_].text;
      p_ += 2;
      if (auto it = line_of.find(rule.name); it != line_of.end())
        fail(rule.line, "rule '" + rule.name + "' is defined twice (first at line " + std::to_string(it->second) +
                            "); write the alternatives in one rule with '|'");
      line_of[rule.name] = rule.line;
      rule.body = alternatives();
      if (peek().kind != Token::Kind::kEnd && !starts_rule()) fail(peek().line, "unexpected '" + describe(peek()) + "'");
      rules.push_back(std::move(rule));
    }
    if (rules.empty()) fail(1, "the grammar has no rules");
    std::map<std::string, int> index;
    for (std::size_t i = 0; i < rules.size(); ++i) index[rules[i].name] = static_cast<int>(i);
    for (auto& r : rules) resolve(r.body, index);
    return rules;
  }

 private:
  const Token& peek(std::size_t ahead = 0) const { return t_[std::min(p_ + ahead, t_.size() - 1)]; }
  bool starts_rule() const { return peek().kind == Token::Kind::kIdent && peek(1).kind == Token::Kind::kDefine; }

  Expr alternatives() {
    Expr alt;
    alt.kind = Expr::Kind::kAlt;
    alt.line = peek().line;
    alt.children.push_back(sequence());
    while (peek().kind == Token::Kind::kBar) {
      ++p_;
      alt.children.push_back(sequence());
    }
    if (alt.children.size() == 1) return std::move(alt.children[0]);
    return alt;
  }

  Expr sequence() {
    Expr seq;
    seq.kind = Expr::Kind::kSeq;
    seq.line = peek().line;
    for (;;) {
      const Token::Kind k = peek().kind;
      if (k == Token::Kind::kEnd || k == Token::Kind::kBar || k == Token::Kind::kRParen || starts_rule()) break;
      Expr item = primary();
      while (peek().kind == Token::Kind::kStar || peek().kind == Token::Kind::kPlus ||
             peek().kind == Token::Kind::kQuestion) {
        Expr rep;
        rep.kind = Expr::Kind::kRepeat;
        rep.line = peek().line;
        rep.min = peek().kind == Token::Kind::kPlus ? 1 : 0;
        rep.max = peek().kind == Token::Kind::kQuestion ? 1 : -1;
        rep.children.push_back(std::move(item));
        item = std::move(rep);
        ++p_;
      }
      seq.children.push_back(std::move(item));
    }
    if (seq.children.size() == 1) return std::move(seq.children[0]);
    return seq;
  }

  Expr primary() {
    const Token& t = peek();
    Expr e;
    e.line = t.line;
    switch (t.kind) {
      case Token::Kind::kIdent:
        e.kind = Expr::Kind::kRef;
        e.name = t.text;
        ++p_;
        return e;
      case Token::Kind::kBytes:
        e.kind = Expr::Kind::kBytes;
        e.bytes = t.bytes;
        ++p_;
        return e;
      case Token::Kind::kLiteral: {
        e.kind = Expr::Kind::kSeq;  // one byte node per character; "" is the empty string
        for (char c : t.text) {
          Expr b;
          b.kind = Expr::Kind::kBytes;
          b.line = t.line;
          b.bytes.set(static_cast<unsigned char>(c));
          e.children.push_back(std::move(b));
        }
        ++p_;
        return e;
      }
      case Token::Kind::kSpecial:
        if (t.text != "index") fail(t.line, "unknown special terminal '<" + t.text + ">' (known: <index>)");
        e.kind = Expr::Kind::kIndex;
        ++p_;
        return e;
      case Token::Kind::kLParen: {
        ++p_;
        if (++depth_ > kMaxNesting) fail(t.line, "groups nested deeper than " + std::to_string(kMaxNesting));
        e = alternatives();
        --depth_;
        if (peek().kind != Token::Kind::kRParen) fail(peek().line, "expected ')' to close the group opened at line " + std::to_string(t.line));
        ++p_;
        return e;
      }
      default:
        fail(t.line, "expected a literal, byte class, rule name, <index> or '(' but found '" + describe(t) + "'");
    }
  }

  void resolve(Expr& e, const std::map<std::string, int>& index) const {
    if (e.kind == Expr::Kind::kRef) {
      const auto it = index.find(e.name);
      if (it == index.end()) fail(e.line, "undefined rule '" + e.name + "'");
      e.rule = it->second;
    }
    for (auto& c : e.children) resolve(c, index);
  }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Token::Kind::kIdent: return t.text;
      case Token::Kind::kDefine: return "::=";
      case Token::Kind::kBytes: return "[...]";
      case Token::Kind::kLiteral: return "\"" + t.text + "\"";
      case Token::Kind::kSpecial: return "<" + t.text + ">";
      case Token::Kind::kLParen: return "(";
      case Token::Kind::kRParen: return ")";
      case Token::Kind::kBar: return "|";
      case Token::Kind::kStar: return "*";
      case Token::Kind::kPlus: return "+";
      case Token::Kind::kQuestion: return "?";
      case Token::Kind::kEnd: return "end of file";
    }
    return "?";
  }

  [[noreturn]] void fail(int line, const std::string& what) const { throw input_error(source_, line, what); }

  static constexpr int kMaxNesting = 256;  // keeps the recursive descent off the stack limit

  std::vector<Token> t_;
  const std::string& source_;
  std::size_t p_ = 0;
  int depth_ = 0;
};

}  // namespace

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

Grammar Grammar::parse(std::string_view text, const std::string& source) {
  Grammar g;
  g.source_ = source;
  g.rules_ = Parser(Lexer(text, source).run(), source).run();
  g.fingerprint_ = fnv1a(text);
  return g;
}

Grammar Grammar::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("grammar: cannot open '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), path);
}

}  // namespace falcon::decoding
