#pragma once
// Solution text <-> Solution, for the grammars of Appendix D (see grammar_spec.h).
// The parsers read untrusted model output: they never crash, never hang (one pass, O(bytes)),
// and store numbers too large for int as kIndexOverflow.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "falcon/problems/solution.h"

namespace falcon::problems {

struct TextFormat {
  std::string keyword;  // "Route", "Routes", "Set", "Order", "Schedule"
  bool nested = false;  // list of lists
  int index_base = 0;   // 1 when the text numbers jobs from 1
  // Written before every index ("#7"): the compact text style, whose ID tokens never double as
  // numbers. Empty in the paper's grammar.
  std::string index_prefix;
  // Each index is followed by a note in parentheses, "#7 (23)": the running state the next choice
  // depends on (the compact_echo text style; formats/notes.h writes it). Readers skip notes:
  // a note is the model's scratch work, never part of the solution.
  bool echo = false;
};

// One note per index of a solution, list by list: written after the index as " (note)".
using EchoNotes = std::vector<std::vector<std::string>>;
std::string echo_note_text(const std::string& note);  // " (note)", as it follows its index
// The IDs a ranked note lists, as written and in its order: "#7#5", or a keyed note's
// "1:#7#5 2:#9" (each run of ties opened by its count, which is no ID). `note` is the text inside
// the parentheses; nullopt when it is not such a list (a note of numbers, "23").
std::optional<std::vector<std::string_view>> note_ids(std::string_view note);

struct ParseResult {
  std::optional<Solution> solution;   // set when the text could be read
  std::optional<double> objective;    // the objective the text claims, when present
  std::string error;                  // why strict parsing failed ("" when it did not)
  std::size_t error_offset = 0;       // byte offset of the failure
};

// "Route: [0, 2, 1], Objective: 12.34" (two decimals, as the grammar's Number requires);
// "Route: [#0, #2, #1], Objective: 12.34" with index_prefix "#";
// "Route: [#0 (9), #2 (5), #1 (0)], Objective: 12.34" with echo and notes {{"9", "5", "0"}}.
// Throws falcon::Error when the format echoes and `notes` does not match the solution's shape.
std::string format_solution(const TextFormat& fmt, const Solution& solution, double objective,
                            const EchoNotes* notes = nullptr);

// The whole text must be one sentence of the grammar (indices may be any digits and lists
// may be empty: range and semantics are repair's job). Trailing whitespace is allowed.
ParseResult parse_solution_strict(const TextFormat& fmt, std::string_view text);

// Salvages what it can from garbled or truncated text: every run of digits inside the
// first bracket becomes an index (an index prefix is skipped like any other stray byte), except
// inside an echo format's parenthesised notes; nesting follows the brackets that are there.
// Fails only when the text has no '[' at all.
ParseResult parse_solution_lenient(const TextFormat& fmt, std::string_view text);

}  // namespace falcon::problems
