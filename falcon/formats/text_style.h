#pragma once
// How a problem's text looks to the model: the name of a text style, saved with the model and read
// back by the evaluator, like its tokenizer. `paper` is Appendix D's grammar and LLMCoSolver's
// prompt, for fine-tuning pretrained LLMs; the others (registry.h: compact.h, notes.h, ranked.h,
// insertion.h) are for models trained from scratch. Objectives are always computed on the
// instance's own coordinates.
#include <string>
#include <string_view>
#include <vector>

#include "falcon/problems/problem.h"

namespace falcon::formats {

// One problem's own text in a model of several problems (a recipe's text.problems): each problem
// may be written in the style that lets it learn (TSP compact, OP ranked notes, PFSP insertions).
struct ProblemTextStyle {
  std::string problem;  // a registered problem's name
  std::string name;
  int candidates = 0;

  bool operator==(const ProblemTextStyle& o) const {
    return problem == o.problem && name == o.name && candidates == o.candidates;
  }
};

struct TextStyle {
  std::string name = "paper";  // paper or a registered format's name (registry.h)
  int candidates = 0;          // compact: nearest-neighbour IDs listed in each node's clause
  std::vector<ProblemTextStyle> per_problem;  // problems written otherwise, sorted by problem
  std::string chat = "none";                  // the instruct format prompts are wrapped in (text/chat_template.h)

  // The single style `problem` is written in: its own entry, else name / candidates.
  TextStyle for_problem(std::string_view problem) const;
  bool operator==(const TextStyle& o) const {
    return name == o.name && candidates == o.candidates && per_problem == o.per_problem && chat == o.chat;
  }
  bool operator!=(const TextStyle& o) const { return !(*this == o); }
};

// Throws falcon::Error naming `where` when the name is unknown or candidates is out of range.
TextStyle make_text_style(std::string_view name, int candidates, const std::string& where);
// Gives `problem` its own style in `style`, checked as make_text_style checks; throws naming
// `where` for a problem that is not registered or already has one.
void set_problem_text_style(TextStyle& style, std::string_view problem, std::string_view name, int candidates,
                            const std::string& where);
// "paper", "compact", "compact, 4 candidates"; then "; op: compact_ranked, 4 candidates" per problem;
// then "; chat template chatml" unless none.
std::string describe(const TextStyle& style);
// Whether the style's solution text writes a note after each index (compact_echo, _state, _ranked,
// _insert): for a style of several problems, whether any of them does.
bool writes_notes(const TextStyle& style);
// Whether each note of the style (one problem's own) lists the next pick's choices, ranked: what
// note picks and the heuristic sampler's walk read (Format::notes_are_choices).
bool notes_are_choices(const TextStyle& style);

// `base` written in `style` (its entry for base's problem, if any): itself for paper; otherwise a
// process-lifetime StyledProblem (styled_problem.h) with the same name, objective, feasibility and
// repair, whose prompt, text format and grammar follow the style.
const problems::Problem& with_text_style(const problems::Problem& base, const TextStyle& style);

}  // namespace falcon::formats
