#pragma once
// How a problem's text looks to the model. `paper` is Appendix D's grammar and LLMCoSolver's
// prompt, for fine-tuning pretrained LLMs. `compact` is for models trained from scratch: IDs are
// their own tokens ("#7", never a number), each entity's numbers stand next to its ID (on a coarse
// grid for coordinates), and routing prompts may list each node's nearest neighbours, so that
// "go to a near, unvisited node" becomes a lookup of IDs instead of arithmetic on coordinates:
//   prompt    TSP:#0 12 87:#5#3;#1 40 2:#7#4;...        (grid 0..99, 2 candidates)
//   solution  Route: [#0, #5, #3, ...], Objective: 3.85
// Each problem writes its own clauses (Problem::compact_prompt, helpers in compact_text.h).
// `compact_echo` is compact with a note after each index of the solution: the running state the
// next choice depends on (MIS: the neighbours the vertex rules out; CVRP: the customer's demand
// and the capacity left), so that feasibility becomes "never write an ID already ruled out" or
// one subtraction of two numbers just written, instead of arithmetic over the whole route:
//   solution  Routes: [[#3 (6 24), #7 (7 17)], [#1 (5 25)]], Objective: 6.02
// Its prompt (Problem::echo_prompt) may differ from compact's where the notes need it: MIS/MVC list
// each edge once (a note copies its clause); CVRP writes each demand next to its ID and each
// candidate's demand beside it.
// `compact_state` is compact_echo whose notes are the whole running state where the echo writes
// its change (Problem::state_notes; MIS: the vertices still free, "#9 (#12#15#30)"), so the next
// choice is a look at the latest note, not a search of all the notes before it.
// `compact_ranked` is compact_state with the note ranked by the problem's simple heuristic and the
// solution written in that heuristic's order (Problem::ranked_notes, ranked_order; MIS: the free
// vertices fewest free neighbours first, "#9 (#30#12#15)"; MVC: the vertices with uncovered edges,
// most first; CVRP: the customers that fit, nearest first; OP: the nodes that fit, most prize per
// added length first), so "take the first" is the heuristic and the model learns where to leave it.
// `compact_insert` writes the solution as the insertions that build it, the items in the order of
// the problem's insertion heuristic, each index the item the next one goes right after, and each
// note the item placed next and its places, the heuristic's best first (Problem::insertion_notes;
// PFSP: NEH's job order, places by the makespan they give, "#0 (#2:#0#1), #0 (#3:#2#1#0), #2 ()"),
// so "take the first" is NEH. Its texts are read back through Problem::solution_of_text.
// Objectives are always computed on the instance's own coordinates. A style is the model's input
// contract, like its tokenizer: it is saved with the model and read back by the evaluator.
#include <string>
#include <string_view>
#include <vector>

#include "falcon/problems/problem.h"

namespace falcon::problems {

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
  std::string name = "paper";  // paper | compact | compact_echo | compact_state | compact_ranked | compact_insert
  int candidates = 0;          // compact: nearest-neighbour IDs listed in each node's clause
  std::vector<ProblemTextStyle> per_problem;  // problems written otherwise, sorted by problem
  std::string chat = "none";  // the instruct format prompts are wrapped in (text/chat_template.h)

  // The single style `problem` is written in: its own entry, else name / candidates.
  TextStyle for_problem(std::string_view problem) const;
  bool operator==(const TextStyle& o) const {
    return name == o.name && candidates == o.candidates && per_problem == o.per_problem && chat == o.chat;
  }
  bool operator!=(const TextStyle& o) const { return !(*this == o); }
};

inline constexpr std::string_view kCompactIndexPrefix = "#";

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

// `base` written in `style` (its entry for base's problem, if any): itself for paper; otherwise a
// process-lifetime adapter with the same name, objective, feasibility and repair, whose prompt,
// text format and grammar follow the style.
const Problem& with_text_style(const Problem& base, const TextStyle& style);

}  // namespace falcon::problems
