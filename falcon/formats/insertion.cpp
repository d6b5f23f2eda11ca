#include "falcon/formats/insertion.h"

#include "falcon/core/error.h"
#include "falcon/formats/compact.h"
#include "falcon/problems/pfsp_insertion.h"

namespace falcon::formats {
namespace {

namespace pfsp = problems::pfsp;
using problems::EchoNotes;
using problems::Instance;
using problems::instance_as;
using problems::Solution;

// A problem's insertions: the anchors that build a solution (of an infeasible one, its valid part),
// the solution that anchors build (what they cannot place is left for repair), one note per anchor.
struct ProblemInsertions {
  std::string_view problem;
  Solution (*anchors)(const Instance& instance, const Solution& solution);
  Solution (*build)(const Instance& instance, const Solution& anchors);
  EchoNotes (*notes)(const Instance& instance, const Solution& anchors);
};

const pfsp::PfspInstance& as_pfsp(const Instance& i) { return instance_as<pfsp::PfspInstance>(i, "pfsp"); }

const ProblemInsertions kInsertions[] = {
    {"pfsp", [](const Instance& i, const Solution& s) { return pfsp::insertion_anchors(as_pfsp(i), s); },
     [](const Instance& i, const Solution& a) { return pfsp::from_insertions(as_pfsp(i), a); },
     [](const Instance& i, const Solution& a) { return pfsp::insertion_notes(as_pfsp(i), a); }},
};

const ProblemInsertions& insertions_of(const problems::Problem& problem) {
  for (const auto& p : kInsertions)
    if (p.problem == problem.name()) return p;
  throw Error(
      not_written("compact_insert", problem, "its insertions to falcon/formats/insertion.cpp", "compact_ranked"));
}

class InsertionFormat final : public Format {
 public:
  std::string_view name() const override { return "compact_insert"; }
  bool writes_notes() const override { return true; }
  std::string prompt(const problems::Problem& problem, const Instance& instance, int candidates) const override {
    return compact_prompt(problem, instance, candidates, PromptFor::kState, name());
  }
  problems::TextShape shape(const problems::Problem& problem) const override {
    problems::TextShape shape = compact_shape(problem, /*notes=*/true, problem.grammar_name() + "_insert");
    --shape.first_index;  // the anchor one below the first ID: "first"
    return shape;
  }
  Solution items(const problems::Problem& problem, const Instance& instance, const Solution& solution) const override {
    return insertions_of(problem).anchors(instance, solution);
  }
  EchoNotes notes(const problems::Problem& problem, const Instance& instance, const Solution& anchors) const override {
    return insertions_of(problem).notes(instance, anchors);
  }
  Solution solution(const problems::Problem& problem, const Instance& instance,
                    const Solution& anchors) const override {
    return insertions_of(problem).build(instance, anchors);
  }
};

}  // namespace

const Format& insertion_format() {
  static const InsertionFormat format;
  return format;
}

}  // namespace falcon::formats
