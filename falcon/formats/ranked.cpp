#include "falcon/formats/ranked.h"

#include <iterator>

#include "falcon/core/error.h"
#include "falcon/formats/compact.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/jssp_dispatch.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/op.h"
#include "falcon/problems/pfsp.h"
#include "falcon/problems/solution_text.h"
#include "falcon/problems/tsp.h"

namespace falcon::formats {
namespace {

namespace op = problems::op;
namespace cvrp = problems::cvrp;
namespace jssp = problems::jssp;
namespace mis_mvc = problems::mis_mvc;
namespace pfsp = problems::pfsp;
namespace tsp = problems::tsp;
using problems::EchoNotes;
using problems::GraphInstance;
using problems::Instance;
using problems::instance_as;
using problems::Solution;

// A problem's ranked notes, the order its heuristic writes a solution in (null: the solution's
// own, when the order is the solution), and its grammar when not the echo's. A problem whose items
// are not its solution's (JSSP: a dispatch order for machine sequences) names the text's keyword,
// always one flat list, and the solution its items build.
struct ProblemRanking {
  std::string_view problem;
  EchoNotes (*notes)(const Instance& instance, const Solution& items);
  Solution (*order)(const Instance& instance, const Solution& solution);
  std::string_view grammar;
  std::string_view flat_keyword = "";
  Solution (*solution)(const Instance& instance, const Solution& items) = nullptr;
};

const jssp::JsspInstance& as_jssp(const Instance& i) { return instance_as<jssp::JsspInstance>(i, "jssp"); }

const ProblemRanking kRankings[] = {
    {"tsp",
     [](const Instance& i, const Solution& s) { return tsp::ranked_notes(instance_as<tsp::TspInstance>(i, "tsp"), s); },
     [](const Instance& i, const Solution& s) { return tsp::ranked_order(instance_as<tsp::TspInstance>(i, "tsp"), s); },
     "tsp_ranked"},
    {"cvrp",
     [](const Instance& i, const Solution& s) {
       return cvrp::ranked_notes(instance_as<cvrp::CvrpInstance>(i, "cvrp"), s);
     },
     [](const Instance& i, const Solution& s) {
       return cvrp::ranked_order(instance_as<cvrp::CvrpInstance>(i, "cvrp"), s);
     },
     "cvrp_ranked"},
    {"op",
     [](const Instance& i, const Solution& s) { return op::ranked_notes(instance_as<op::OpInstance>(i, "op"), s); },
     [](const Instance& i, const Solution& s) { return op::ranked_order(instance_as<op::OpInstance>(i, "op"), s); },
     "op_ranked"},
    {"mis",
     [](const Instance& i, const Solution& s) {
       return mis_mvc::mis_ranked_notes(instance_as<GraphInstance>(i, "mis"), s);
     },
     [](const Instance& i, const Solution& s) {
       return mis_mvc::mis_ranked_order(instance_as<GraphInstance>(i, "mis"), s);
     },
     ""},
    {"mvc",
     [](const Instance& i, const Solution& s) {
       return mis_mvc::mvc_ranked_notes(instance_as<GraphInstance>(i, "mvc"), s);
     },
     [](const Instance& i, const Solution& s) {
       return mis_mvc::mvc_ranked_order(instance_as<GraphInstance>(i, "mvc"), s);
     },
     ""},
    {"pfsp",
     [](const Instance& i, const Solution& s) {
       return pfsp::ranked_notes(instance_as<pfsp::PfspInstance>(i, "pfsp"), s);
     },
     nullptr, ""},
    {"jssp", [](const Instance& i, const Solution& s) { return jssp::dispatch_notes(as_jssp(i), s); },
     [](const Instance& i, const Solution& s) { return jssp::dispatch_order(as_jssp(i), s); }, "jssp_ranked",
     "Dispatch", [](const Instance& i, const Solution& s) { return jssp::from_dispatch(as_jssp(i), s); }},
};

// compact_ranked_conflict's notes: only the choices that compete (JSSP: the Giffler-Thompson set).
const ProblemRanking kConflictRankings[] = {
    {"jssp", [](const Instance& i, const Solution& s) { return jssp::conflict_notes(as_jssp(i), s); },
     [](const Instance& i, const Solution& s) { return jssp::conflict_order(as_jssp(i), s); }, "jssp_ranked",
     "Dispatch", [](const Instance& i, const Solution& s) { return jssp::from_dispatch(as_jssp(i), s); }},
};

// compact_ranked_keyed's notes: the ranked notes with the greedy's count before each run of ties;
// the set written with its ties broken by the two-hop rule the counts let the model compute.
const ProblemRanking kKeyedRankings[] = {
    {"mis",
     [](const Instance& i, const Solution& s) {
       return mis_mvc::mis_keyed_notes(instance_as<GraphInstance>(i, "mis"), s);
     },
     [](const Instance& i, const Solution& s) {
       return mis_mvc::mis_keyed_order(instance_as<GraphInstance>(i, "mis"), s);
     },
     "mis_keyed"},
    {"mvc",
     [](const Instance& i, const Solution& s) {
       return mis_mvc::mvc_keyed_notes(instance_as<GraphInstance>(i, "mvc"), s);
     },
     [](const Instance& i, const Solution& s) {
       return mis_mvc::mvc_keyed_order(instance_as<GraphInstance>(i, "mvc"), s);
     },
     "mvc_keyed"},
};

// The variants of the text: which notes, and whether the prompt ends on the first pick's.
struct RankedVariant {
  std::string_view name;
  const ProblemRanking* rankings;
  std::size_t count;
  bool opening;
};

constexpr RankedVariant kPlain{"compact_ranked", kRankings, std::size(kRankings), false};
constexpr RankedVariant kOpening{"compact_ranked_opening", kRankings, std::size(kRankings), true};
constexpr RankedVariant kConflict{"compact_ranked_conflict", kConflictRankings, std::size(kConflictRankings), true};
constexpr RankedVariant kKeyed{"compact_ranked_keyed", kKeyedRankings, std::size(kKeyedRankings), true};

const ProblemRanking* ranking_of(const RankedVariant& variant, const problems::Problem& problem) {
  for (std::size_t k = 0; k < variant.count; ++k)
    if (variant.rankings[k].problem == problem.name()) return &variant.rankings[k];
  return nullptr;
}

const ProblemRanking& written_ranking(const RankedVariant& variant, const problems::Problem& problem) {
  const ProblemRanking* ranking = ranking_of(variant, problem);
  if (ranking == nullptr)
    throw Error(not_written(variant.name, problem, "its ranking to falcon/formats/ranked.cpp",
                            variant.rankings == kRankings ? "compact_state" : "compact_ranked"));
  return *ranking;
}

// An item out of range moves no problem's state: the note it leaves is the state before any pick.
constexpr int kOutOfRange = -1;

class RankedFormat final : public Format {
 public:
  explicit RankedFormat(const RankedVariant& variant) : variant_(variant) {}
  std::string_view name() const override { return variant_.name; }
  bool writes_notes() const override { return true; }
  bool notes_are_choices() const override { return true; }
  // With the opening note, the prompt ends on the note that lists the first pick's choices, as
  // every later pick follows its own: without it the model must find the greedy's first pick
  // itself (MIS: the vertex of least degree among all).
  std::string prompt(const problems::Problem& problem, const Instance& instance, int candidates) const override {
    std::string text = compact_prompt(problem, instance, candidates, PromptFor::kState, name());
    if (variant_.opening) {
      const EchoNotes notes = notes_of(problem, instance, Solution::flat({kOutOfRange}));
      const std::string opening = notes.empty() || notes.back().empty() ? std::string() : notes.back().back();
      text += problems::echo_note_text(opening);
    }
    return text;
  }
  problems::TextShape shape(const problems::Problem& problem) const override {
    const ProblemRanking* ranking = ranking_of(variant_, problem);
    const bool own = ranking != nullptr && !ranking->grammar.empty();
    problems::TextShape shape = compact_shape(problem, /*notes=*/true,
                                              own ? std::string(ranking->grammar) : problem.grammar_name() + "_echo");
    if (ranking != nullptr && !ranking->flat_keyword.empty()) {
      shape.keyword = ranking->flat_keyword;
      shape.nested = false;
    }
    return shape;
  }
  Solution items(const problems::Problem& problem, const Instance& instance, const Solution& solution) const override {
    const ProblemRanking& ranking = written_ranking(variant_, problem);
    return ranking.order != nullptr ? ranking.order(instance, solution) : solution;
  }
  EchoNotes notes(const problems::Problem& problem, const Instance& instance, const Solution& items) const override {
    return notes_of(problem, instance, items);
  }
  Solution solution(const problems::Problem& problem, const Instance& instance, const Solution& items) const override {
    const ProblemRanking& ranking = written_ranking(variant_, problem);
    return ranking.solution != nullptr ? ranking.solution(instance, items) : items;
  }

 private:
  EchoNotes notes_of(const problems::Problem& problem, const Instance& instance, const Solution& items) const {
    return written_ranking(variant_, problem).notes(instance, items);
  }

  const RankedVariant& variant_;
};

}  // namespace

const Format& ranked_format() {
  static const RankedFormat format(kPlain);
  return format;
}

const Format& ranked_opening_format() {
  static const RankedFormat format(kOpening);
  return format;
}

const Format& ranked_conflict_format() {
  static const RankedFormat format(kConflict);
  return format;
}

const Format& ranked_keyed_format() {
  static const RankedFormat format(kKeyed);
  return format;
}

}  // namespace falcon::formats
