#pragma once
// What a text style writes beyond the paper's text: the items a solution's text lists, the note
// after each, and the solution that a text's items stand for. falcon/formats implements it, one
// object per style; a Problem without one writes the paper's text (the solution's own items, no notes).
#include "falcon/problems/solution.h"
#include "falcon/problems/solution_text.h"

namespace falcon::problems {

struct Instance;
class Problem;

class TextNotation {
 public:
  virtual ~TextNotation() = default;
  // The items the text lists for `solution`: a ranked order, insertion anchors, or the solution.
  virtual Solution items(const Problem& problem, const Instance& instance, const Solution& solution) const = 0;
  // One note per item of `items`. Throws naming the style and the problem when it has none.
  virtual EchoNotes notes(const Problem& problem, const Instance& instance, const Solution& items) const = 0;
  // The inverse of items: the solution that a text's items stand for.
  virtual Solution solution(const Problem& problem, const Instance& instance, const Solution& items) const = 0;
};

}  // namespace falcon::problems
