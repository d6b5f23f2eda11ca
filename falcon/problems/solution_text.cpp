#include "falcon/problems/solution_text.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "falcon/core/error.h"

namespace falcon::problems {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads digits at text[pos..], advancing pos; saturates at kIndexOverflow.
int read_index(std::string_view text, std::size_t& pos, int index_base) {
  long long value = 0;
  bool overflow = false;
  while (pos < text.size() && is_digit(text[pos])) {
    if (!overflow) {
      value = value * 10 + (text[pos] - '0');
      if (value > static_cast<long long>(kIndexOverflow)) overflow = true;
    }
    ++pos;
  }
  if (overflow) return kIndexOverflow;
  return static_cast<int>(value - index_base);  // 1-based "0" becomes -1: invalid
}

// Bytes a note may hold: anything that cannot close or open the structure around it.
bool note_byte(char c) { return c != '(' && c != ')' && c != '[' && c != ']'; }

void append_list(std::string& out, const std::vector<int>& list, const TextFormat& fmt,
                 const std::vector<std::string>* notes) {
  out += '[';
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out += ", ";
    out += fmt.index_prefix;
    out += std::to_string(static_cast<long long>(list[i]) + fmt.index_base);
    if (notes != nullptr) out += echo_note_text((*notes)[i]);
  }
  out += ']';
}

// The notes of list `k`, checked against its length; null when the format does not echo.
const std::vector<std::string>* notes_of(const TextFormat& fmt, const EchoNotes* notes, std::size_t k,
                                         std::size_t length) {
  if (!fmt.echo) return nullptr;
  if (notes == nullptr || k >= notes->size() || (*notes)[k].size() != length)
    throw Error("solution text: the echo format needs one note per index (list " + std::to_string(k) + ")");
  for (const auto& note : (*notes)[k])
    for (char c : note)
      if (!note_byte(c)) throw Error("solution text: a note may not contain '" + std::string(1, c) + "': '" + note + "'");
  return &(*notes)[k];
}

// Recursive-descent reader for the strict grammar. Every method consumes or fails; none loops
// without advancing, so any input terminates in O(bytes).
class StrictParser {
 public:
  StrictParser(const TextFormat& fmt, std::string_view text) : fmt_(fmt), text_(text) {}

  ParseResult run() {
    ParseResult result;
    Solution solution;
    if (!literal(fmt_.keyword) || !literal(": [")) return fail(result, "expected '" + fmt_.keyword + ": ['");
    if (fmt_.nested) {
      if (peek() == '[') {
        do {
          if (!literal("[")) return fail(result, "expected '['");
          solution.lists.emplace_back();
          if (!list(solution.lists.back())) return fail(result, "expected an index or ']'");
          if (!literal("]")) return fail(result, "expected ']'");
        } while (literal(", "));
      }
    } else {
      solution.lists.emplace_back();
      if (!list(solution.lists.back())) return fail(result, "expected an index or ']'");
    }
    if (!literal("], Objective: ")) return fail(result, "expected '], Objective: '");
    const std::size_t number_start = pos_;
    if (!digits() || !literal(".") || !digits()) return fail(result, "expected a number like 12.34");
    result.objective = std::strtod(std::string(text_.substr(number_start, pos_ - number_start)).c_str(), nullptr);
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (pos_ != text_.size()) return fail(result, "unexpected text after the objective");
    result.solution = std::move(solution);
    return result;
  }

 private:
  // Possibly empty: Index (", " Index)*, each Index written after the format's prefix.
  bool list(std::vector<int>& out) {
    if (!starts_index()) return true;  // empty list; the caller checks the closing ']'
    do {
      if (!literal(fmt_.index_prefix) || !is_digit(peek())) return false;
      out.push_back(read_index(text_, pos_, fmt_.index_base));
      if (fmt_.echo && !note()) return false;
    } while (literal(", "));
    return true;
  }
  bool starts_index() const {
    const std::string_view prefix = fmt_.index_prefix;
    if (text_.substr(pos_, prefix.size()) != prefix) return false;
    const std::size_t digit = pos_ + prefix.size();
    return digit < text_.size() && is_digit(text_[digit]);
  }
  bool note() {  // " (" note-bytes ")"
    if (!literal(" (")) return false;
    while (pos_ < text_.size() && note_byte(text_[pos_])) ++pos_;
    return literal(")");
  }
  bool digits() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    return pos_ > start;
  }
  bool literal(std::string_view s) {
    if (text_.substr(pos_, s.size()) != s) return false;
    pos_ += s.size();
    return true;
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  ParseResult& fail(ParseResult& r, std::string what) {
    r.solution.reset();
    r.objective.reset();
    r.error = std::move(what);
    r.error_offset = pos_;
    return r;
  }

  const TextFormat& fmt_;
  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string echo_note_text(const std::string& note) { return " (" + note + ")"; }

std::optional<std::vector<std::string_view>> note_ids(std::string_view note) {
  const auto digits_end = [note](std::size_t at) {
    while (at < note.size() && note[at] >= '0' && note[at] <= '9') ++at;
    return at;
  };
  std::vector<std::string_view> ids;
  for (std::size_t i = 0; i < note.size();) {
    const bool next_run = note[i] == ' ' && !ids.empty();  // a keyed note's runs: "1:#7 2:#9"
    if (next_run) ++i;
    if (i < note.size() && (next_run || note[i] != '#')) {  // a run's count: "1:"
      const std::size_t colon = digits_end(i);
      if (colon == i || colon == note.size() || note[colon] != ':') return std::nullopt;
      i = colon + 1;
    }
    if (i >= note.size() || note[i] != '#') return std::nullopt;
    const std::size_t end = digits_end(i + 1);
    if (end == i + 1) return std::nullopt;
    ids.push_back(note.substr(i + 1, end - i - 1));
    i = end;
  }
  return ids;
}

std::string format_solution(const TextFormat& fmt, const Solution& solution, double objective,
                            const EchoNotes* notes) {
  std::string out = fmt.keyword + ": ";
  if (fmt.nested) {
    out += '[';
    for (std::size_t i = 0; i < solution.lists.size(); ++i) {
      if (i) out += ", ";
      append_list(out, solution.lists[i], fmt, notes_of(fmt, notes, i, solution.lists[i].size()));
    }
    out += ']';
  } else {
    const std::vector<int>& items = solution.items();
    append_list(out, items, fmt, notes_of(fmt, notes, 0, items.size()));
  }
  char number[64];
  std::snprintf(number, sizeof number, "%.2f", objective < 0 ? 0.0 : objective);
  out += ", Objective: ";
  out += number;
  return out;
}

ParseResult parse_solution_strict(const TextFormat& fmt, std::string_view text) {
  return StrictParser(fmt, text).run();
}

ParseResult parse_solution_lenient(const TextFormat& fmt, std::string_view text) {
  ParseResult result;
  std::size_t pos = text.find('[');
  if (pos == std::string_view::npos) {
    result.error = "no '[' in the text";
    return result;
  }
  Solution solution;
  if (!fmt.nested) solution.lists.emplace_back();
  int depth = 0;
  bool need_new_list = true;  // nested: digits at depth 1 (outside inner brackets) open a list
  for (; pos < text.size(); ) {
    const char c = text[pos];
    if (fmt.echo && c == '(') {  // a note: scratch work, not indices
      ++pos;
      while (pos < text.size() && note_byte(text[pos])) ++pos;
      if (pos < text.size() && text[pos] == ')') ++pos;
    } else if (c == '[') {
      ++depth;
      if (fmt.nested && depth == 2) {
        solution.lists.emplace_back();
        need_new_list = false;
      }
      ++pos;
    } else if (c == ']') {
      --depth;
      ++pos;
      if (depth <= 0) break;
      if (fmt.nested && depth == 1) need_new_list = true;
    } else if (is_digit(c)) {
      const int index = read_index(text, pos, fmt.index_base);
      if (fmt.nested && depth == 1 && need_new_list) {
        solution.lists.emplace_back();
        need_new_list = false;
      }
      solution.lists.back().push_back(index);
    } else {
      ++pos;
    }
  }
  // The claimed objective, if the text goes on to state one.
  const std::size_t tag = text.find("Objective:", pos);
  if (tag != std::string_view::npos) {
    std::size_t p = tag + 10;
    while (p < text.size() && text[p] == ' ') ++p;
    std::size_t end = p;
    while (end < text.size() && (is_digit(text[end]) || text[end] == '.') && end - p < 40) ++end;
    if (end > p) result.objective = std::strtod(std::string(text.substr(p, end - p)).c_str(), nullptr);
  }
  result.solution = std::move(solution);
  return result;
}

}  // namespace falcon::problems
