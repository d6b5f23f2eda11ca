#include "falcon/problems/grammar_spec.h"

namespace falcon::problems {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Recogniser {
 public:
  Recogniser(const GrammarSpec& g, std::string_view t) : g_(g), t_(t) {}

  bool run() {
    if (!lit(g_.keyword) || !lit(": [")) return false;
    if (g_.nested) {
      do {
        if (!lit("[") || !list() || !lit("]")) return false;
      } while (lit(", "));
    } else if (!list()) {
      return false;
    }
    if (!lit("], Objective: ")) return false;
    if (!digits() || !lit(".") || !digits()) return false;
    return p_ == t_.size();
  }

 private:
  bool list() {
    const std::string_view prefix = g_.index_prefix;
    const bool starts = t_.substr(p_, prefix.size()) == prefix && p_ + prefix.size() < t_.size() && is_digit(t_[p_ + prefix.size()]);
    if (!starts) return g_.allow_empty;
    do {
      if (!index()) return false;
    } while (lit(", "));
    return true;
  }
  // A decimal in [first_index, last_index] with no leading zero.
  bool index() {
    if (!lit(g_.index_prefix)) return false;
    const std::size_t start = p_;
    long long v = 0;
    while (p_ < t_.size() && is_digit(t_[p_]) && p_ - start < 12) v = v * 10 + (t_[p_++] - '0');
    const std::size_t len = p_ - start;
    if (len == 0 || (len > 1 && t_[start] == '0')) return false;
    if (p_ < t_.size() && is_digit(t_[p_])) return false;  // too many digits
    return v >= g_.first_index && v <= g_.last_index;
  }
  bool digits() {
    const std::size_t start = p_;
    while (p_ < t_.size() && is_digit(t_[p_])) ++p_;
    return p_ > start;
  }
  bool lit(std::string_view s) {
    if (t_.substr(p_, s.size()) != s) return false;
    p_ += s.size();
    return true;
  }
  char peek() const { return p_ < t_.size() ? t_[p_] : '\0'; }

  const GrammarSpec& g_;
  std::string_view t_;
  std::size_t p_ = 0;
};

}  // namespace

std::string GrammarSpec::to_bnf() const {
  const std::string range = "\"" + std::to_string(first_index) + "\" | ... | \"" + std::to_string(last_index) + "\"";
  std::string bnf;
  bnf += "S        -> \"" + keyword + ": [\" Body \"], Objective: \" Number\n";
  if (nested) {
    bnf += "Body     -> Inner | Inner \", \" Body\n";
    bnf += "Inner    -> \"[\" List \"]\"\n";
  } else {
    bnf += "Body     -> List\n";
  }
  bnf += std::string("List     -> ") + (allow_empty ? "eps | Items\n" : "Items\n");
  bnf += "Items    -> Index | Index \", \" Items\n";
  bnf += "Index    -> " + (index_prefix.empty() ? range : "\"" + index_prefix + "\" (" + range + ")") + "\n";
  bnf += "Number   -> Digit+ \".\" Digit+\n";
  bnf += "Digit    -> \"0\" | \"1\" | ... | \"9\"\n";
  return bnf;
}

bool GrammarSpec::accepts(std::string_view text) const { return Recogniser(*this, text).run(); }

}  // namespace falcon::problems
