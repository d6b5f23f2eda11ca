#include "falcon/formats/notes.h"

#include "falcon/core/error.h"
#include "falcon/formats/compact.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/op.h"

namespace falcon::formats {
namespace {

namespace op = problems::op;
namespace cvrp = problems::cvrp;
namespace mis_mvc = problems::mis_mvc;
using problems::EchoNotes;
using problems::GraphInstance;
using problems::Instance;
using problems::instance_as;
using problems::Solution;

// A problem's notes: echo, and state where they differ from the echo's (else null).
struct ProblemNotes {
  std::string_view problem;
  EchoNotes (*echo)(const Instance& instance, const Solution& items);
  EchoNotes (*state)(const Instance& instance, const Solution& items);
};

const ProblemNotes kNotes[] = {
    {"cvrp",
     [](const Instance& i, const Solution& s) {
       return cvrp::echo_notes(instance_as<cvrp::CvrpInstance>(i, "cvrp"), s);
     },
     nullptr},
    {"op", [](const Instance& i, const Solution& s) { return op::echo_notes(instance_as<op::OpInstance>(i, "op"), s); },
     nullptr},
    {"mis",
     [](const Instance& i, const Solution& s) {
       return mis_mvc::mis_echo_notes(instance_as<GraphInstance>(i, "mis"), s);
     },
     [](const Instance& i, const Solution& s) {
       return mis_mvc::mis_state_notes(instance_as<GraphInstance>(i, "mis"), s);
     }},
    {"mvc",
     [](const Instance& i, const Solution& s) {
       return mis_mvc::mvc_echo_notes(instance_as<GraphInstance>(i, "mvc"), s);
     },
     [](const Instance& i, const Solution& s) {
       return mis_mvc::mvc_state_notes(instance_as<GraphInstance>(i, "mvc"), s);
     }},
};

const ProblemNotes& notes_of(const problems::Problem& problem) {
  for (const auto& n : kNotes)
    if (n.problem == problem.name()) return n;
  throw Error(not_written("compact_echo", problem, "its notes to falcon/formats/notes.cpp", "compact"));
}

// compact_echo and compact_state: the same text but for the notes and the prompt that they need.
class NotesFormat final : public Format {
 public:
  explicit NotesFormat(bool state) : state_(state) {}
  std::string_view name() const override { return state_ ? "compact_state" : "compact_echo"; }
  bool writes_notes() const override { return true; }
  std::string prompt(const problems::Problem& problem, const Instance& instance, int candidates) const override {
    return compact_prompt(problem, instance, candidates, state_ ? PromptFor::kState : PromptFor::kEcho, name());
  }
  problems::TextShape shape(const problems::Problem& problem) const override {
    return compact_shape(problem, /*notes=*/true, problem.grammar_name() + "_echo");
  }
  EchoNotes notes(const problems::Problem& problem, const Instance& instance, const Solution& items) const override {
    return state_ ? state_notes(problem, instance, items) : echo_notes(problem, instance, items);
  }

 private:
  bool state_;
};

}  // namespace

EchoNotes echo_notes(const problems::Problem& problem, const Instance& instance, const Solution& items) {
  return notes_of(problem).echo(instance, items);
}

EchoNotes state_notes(const problems::Problem& problem, const Instance& instance, const Solution& items) {
  const ProblemNotes& n = notes_of(problem);
  return (n.state != nullptr ? n.state : n.echo)(instance, items);
}

const Format& echo_format() {
  static const NotesFormat format(/*state=*/false);
  return format;
}

const Format& state_format() {
  static const NotesFormat format(/*state=*/true);
  return format;
}

}  // namespace falcon::formats
