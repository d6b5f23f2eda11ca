#include "falcon/formats/compact.h"

#include <cctype>

#include "falcon/core/error.h"
#include "falcon/formats/notes.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/jssp.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/op.h"
#include "falcon/problems/pfsp.h"
#include "falcon/problems/tsp.h"

namespace falcon::formats {
namespace {

namespace tsp = problems::tsp;
namespace op = problems::op;
namespace cvrp = problems::cvrp;
namespace mis_mvc = problems::mis_mvc;
namespace pfsp = problems::pfsp;
namespace jssp = problems::jssp;
using problems::Instance;
using problems::instance_as;

std::string graph_prompt(const Instance& instance, std::string_view problem, PromptFor level) {
  std::string tag(problem);  // "MIS", "MVC": the prompts' first word
  for (char& c : tag) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return mis_mvc::compact_prompt(instance_as<problems::GraphInstance>(instance, problem), tag,
                                 /*upper_only=*/level != PromptFor::kCompact,
                                 /*with_degree=*/level == PromptFor::kState);
}

// A graph's clauses list neighbours and a schedule's none: `candidates` applies to routing only.
struct ProblemPrompt {
  std::string_view problem;
  std::string (*write)(const Instance& instance, int candidates, PromptFor level);
};

const ProblemPrompt kPrompts[] = {
    {"tsp", [](const Instance& i, int c,
               PromptFor) { return tsp::compact_prompt(instance_as<tsp::TspInstance>(i, "tsp"), c); }},
    {"op",
     [](const Instance& i, int c, PromptFor) { return op::compact_prompt(instance_as<op::OpInstance>(i, "op"), c); }},
    {"cvrp",
     [](const Instance& i, int c, PromptFor level) {
       return cvrp::compact_prompt(instance_as<cvrp::CvrpInstance>(i, "cvrp"), c, level != PromptFor::kCompact);
     }},
    {"mis", [](const Instance& i, int, PromptFor level) { return graph_prompt(i, "mis", level); }},
    {"mvc", [](const Instance& i, int, PromptFor level) { return graph_prompt(i, "mvc", level); }},
    {"pfsp", [](const Instance& i, int,
                PromptFor) { return pfsp::compact_prompt(instance_as<pfsp::PfspInstance>(i, "pfsp")); }},
    {"jssp", [](const Instance& i, int,
                PromptFor) { return jssp::compact_prompt(instance_as<jssp::JsspInstance>(i, "jssp")); }},
};

class CompactFormat final : public Format {
 public:
  std::string_view name() const override { return "compact"; }
  bool writes_notes() const override { return false; }
  std::string prompt(const problems::Problem& problem, const Instance& instance, int candidates) const override {
    return compact_prompt(problem, instance, candidates, PromptFor::kCompact, name());
  }
  problems::TextShape shape(const problems::Problem& problem) const override {
    return compact_shape(problem, /*notes=*/false, problem.grammar_name() + "_compact");
  }
  // Unwritten, but the notes of a compact text are the echo's: what a model of it would see after each ID.
  problems::EchoNotes notes(const problems::Problem& problem, const Instance& instance,
                            const problems::Solution& items) const override {
    return echo_notes(problem, instance, items);
  }
};

}  // namespace

std::string compact_prompt(const problems::Problem& problem, const Instance& instance, int candidates, PromptFor level,
                           std::string_view style) {
  for (const auto& p : kPrompts)
    if (p.problem == problem.name()) return p.write(instance, candidates, level);
  throw Error(not_written(style, problem, "its prompt to falcon/formats/compact.cpp", "paper"));
}

const Format& compact_format() {
  static const CompactFormat format;
  return format;
}

}  // namespace falcon::formats
