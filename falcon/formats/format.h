#pragma once
// A text style for models trained from scratch (text_style.h): how it writes a problem's prompt,
// the items of its solution text and the note after each. One object per style (registry.h); each
// family's file holds its per-problem parts: compact.h (prompts), notes.h (compact_echo,
// compact_state), ranked.h (compact_ranked), insertion.h (compact_insert). A problem that a family
// has no part for is refused when that part is asked for, naming the style, the problem and the file.
#include <string>
#include <string_view>

#include "falcon/problems/problem.h"
#include "falcon/problems/text_notation.h"

namespace falcon::formats {

inline constexpr std::string_view kCompactIndexPrefix = "#";

class Format : public problems::TextNotation {
 public:
  virtual std::string_view name() const = 0;  // "compact_echo": the style's name in text.style
  virtual bool writes_notes() const = 0;      // a note after each index of the solution text
  // Whether each note lists the next pick's choices, ranked by the problem's heuristic: what note
  // picks and the heuristic sampler's walk read.
  virtual bool notes_are_choices() const { return false; }
  // phi: what the model reads of `instance`, for `problem` (a registered problem, the paper's text).
  virtual std::string prompt(const problems::Problem& problem, const problems::Instance& instance,
                             int candidates) const = 0;
  // The solution text's shape: the paper's, its IDs written "#k", with this style's notes and grammar.
  virtual problems::TextShape shape(const problems::Problem& problem) const = 0;

  // The text lists the solution's own items, unless the style orders them otherwise.
  problems::Solution items(const problems::Problem&, const problems::Instance&,
                           const problems::Solution& solution) const override {
    return solution;
  }
  problems::Solution solution(const problems::Problem&, const problems::Instance&,
                              const problems::Solution& items) const override {
    return items;
  }
};

// The paper's shape of `problem` with "#" IDs, notes when `notes`, read by grammars/<grammar>.bnf.
problems::TextShape compact_shape(const problems::Problem& problem, bool notes, std::string grammar);

// "text style 'S' is not written for P yet (add its W to falcon/formats/F); use text.style: FALLBACK".
std::string not_written(std::string_view style, const problems::Problem& problem, std::string_view what,
                        std::string_view fallback);

}  // namespace falcon::formats
