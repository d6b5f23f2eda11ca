#include "falcon/formats/text_style.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/jssp.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/op.h"
#include "falcon/problems/pfsp.h"
#include "falcon/problems/tsp.h"

namespace falcon::problems {
namespace {

using formats::TextStyle;
using formats::with_text_style;
using formats::make_text_style;
using formats::set_problem_text_style;
using formats::describe;
using formats::writes_notes;
using formats::notes_are_choices;

std::shared_ptr<tsp::TspInstance> three_points() {
  auto inst = std::make_shared<tsp::TspInstance>();
  inst->geometry = RoutingGeometry::euclidean({{0.125, 0.875}, {0.5, 0.031}, {0.999, 0.041}});
  inst->name = "three";
  return inst;
}

const Problem& compact_tsp(int candidates) {
  return with_text_style(problem_by_name("tsp"), make_text_style("compact", candidates, "test"));
}

TEST(TextStyle, PaperIsTheProblemItself) {
  const Problem& tsp = problem_by_name("tsp");
  EXPECT_EQ(&with_text_style(tsp, TextStyle{}), &tsp);
  EXPECT_EQ(&compact_tsp(2), &compact_tsp(2));  // one adapter per (problem, candidates)
  EXPECT_NE(&compact_tsp(2), &compact_tsp(3));
}

TEST(TextStyle, CompactTspPromptHasIdsGridCoordinatesAndNearestNeighbours) {
  const auto inst = three_points();
  EXPECT_EQ(compact_tsp(0).prompt(*inst), "TSP:#0 12 87;#1 50 3;#2 99 4;");
  // Node 0 is nearer to 1 (0.92) than to 2 (1.21); node 1 nearer to 2 (0.50) than to 0 (0.92).
  EXPECT_EQ(compact_tsp(2).prompt(*inst), "TSP:#0 12 87:#1#2;#1 50 3:#2#0;#2 99 4:#1#0;");
  EXPECT_EQ(compact_tsp(1).prompt(*inst), "TSP:#0 12 87:#1;#1 50 3:#2;#2 99 4:#1;");
  EXPECT_EQ(compact_tsp(30).prompt(*inst), compact_tsp(2).prompt(*inst));  // at most n - 1 candidates
}

TEST(TextStyle, CompactTextRoundTripsAndMatchesItsGrammar) {
  const auto inst = three_points();
  const Problem& p = compact_tsp(2);
  const Solution tour = Solution::flat({0, 2, 1});
  const std::string text = p.format(*inst, tour);
  EXPECT_EQ(text.substr(0, 22), "Route: [#0, #2, #1], O");
  const ParseResult strict = p.parse(text);
  ASSERT_TRUE(strict.solution.has_value()) << strict.error;
  EXPECT_EQ(*strict.solution, tour);
  EXPECT_TRUE(p.grammar(*inst).accepts(text));
  EXPECT_FALSE(p.grammar(*inst).accepts("Route: [0, 2, 1], Objective: 1.00"));  // the paper's text
  EXPECT_FALSE(p.grammar(*inst).accepts("Route: [#0, #3, #1], Objective: 1.00"));  // out of range
  EXPECT_FALSE(p.parse("Route: [0, 2, 1], Objective: 1.00").solution.has_value());
  EXPECT_FALSE(p.parse("Route: [#0, 2], Objective: 1.00").solution.has_value());
  EXPECT_FALSE(p.parse("Route: [#, #2], Objective: 1.00").solution.has_value());
  EXPECT_EQ(p.parse("Route: [#2, #0, #", /*lenient=*/true).solution->items(), (std::vector<int>{2, 0}));
  EXPECT_EQ(p.grammar_name(), "tsp_compact");
  EXPECT_NE(p.grammar(*inst).to_bnf().find("\"#\" (\"0\" | ... | \"2\")"), std::string::npos);
}

TEST(TextStyle, OnlyTheTextChanges) {
  const auto inst = three_points();
  const Problem& paper = problem_by_name("tsp");
  const Problem& compact = compact_tsp(2);
  for (const Solution& s : {Solution::flat({0, 2, 1}), Solution::flat({2, 2}), Solution::flat({})}) {
    EXPECT_EQ(compact.objective(*inst, s), paper.objective(*inst, s));
    EXPECT_EQ(compact.feasible(*inst, s), paper.feasible(*inst, s));
    EXPECT_EQ(compact.violation(*inst, s), paper.violation(*inst, s));
    EXPECT_EQ(compact.repair(*inst, s), paper.repair(*inst, s));
  }
  EXPECT_EQ(compact.name(), "tsp");
  EXPECT_EQ(compact.sense(), paper.sense());
}

TEST(TextStyle, BadStylesAreNamedErrors) {
  EXPECT_THROW(make_text_style("fancy", 0, "r.yaml: text"), Error);
  EXPECT_THROW(make_text_style("compact", -1, "r.yaml: text"), Error);
  EXPECT_THROW(make_text_style("compact", 33, "r.yaml: text"), Error);
  EXPECT_THROW(make_text_style("paper", 4, "r.yaml: text"), Error);
  try {
    make_text_style("fancy", 0, "r.yaml: text");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("r.yaml: text"), std::string::npos);
  }
}

// Repair of a list naming every index once: a feasible, non-trivial solution of any problem.
Solution repaired_full_list(const Problem& p, const Instance& instance) {
  std::vector<int> everything(instance.size());
  std::iota(everything.begin(), everything.end(), 0);
  return p.repair(instance, Solution::flat(everything));
}

const Problem& compact(const std::string& problem, int candidates) {
  return with_text_style(problem_by_name(problem), make_text_style("compact", candidates, "test"));
}

TEST(TextStyle, CompactPromptsOfTheOtherProblems) {
  auto op = std::make_shared<op::OpInstance>();
  op->geometry = RoutingGeometry::euclidean({{0.5, 0.5}, {0.125, 0.875}, {0.9, 0.1}});
  op->prizes = {0, 0.57, 1};
  op->budget = 2;
  // Budget on the 0..99 grid (2 -> 200); prizes as round(100 p); the depot is never a candidate.
  EXPECT_EQ(compact("op", 1).prompt(*op), "OP:200;#0 50 50 0:#1;#1 12 87 57:#2;#2 90 10 100:#1;");
  op->end = 2;  // an s-t path names its ends, and neither is a candidate
  EXPECT_EQ(compact("op", 2).prompt(*op), "OP:200#0#2;#0 50 50 0:#1;#1 12 87 57;#2 90 10 100:#1;");

  auto cvrp = std::make_shared<cvrp::CvrpInstance>();
  cvrp->geometry = RoutingGeometry::euclidean({{0.5, 0.5}, {0.125, 0.875}, {0.9, 0.1}, {0.2, 0.8}});
  cvrp->demands = {0, 5, 7, 3};
  cvrp->capacity = 10;
  EXPECT_EQ(compact("cvrp", 1).prompt(*cvrp), "CVRP:10;#0 50 50:#3;#1 12 87 5:#3;#2 90 10 7:#3;#3 20 80 3:#1;");

  auto graph = std::make_shared<GraphInstance>();
  graph->graph = Graph::from_edges(4, {{0, 1}, {0, 3}, {1, 3}});
  // Every neighbour of every vertex (each edge twice); an isolated vertex is its ID alone.
  EXPECT_EQ(compact("mis", 0).prompt(*graph), "MIS:#0:#1#3;#1:#0#3;#2;#3:#0#1;");
  EXPECT_EQ(compact("mvc", 4).prompt(*graph), "MVC:#0:#1#3;#1:#0#3;#2;#3:#0#1;");

  auto pfsp = std::make_shared<pfsp::PfspInstance>();
  pfsp->jobs = 2, pfsp->machines = 3, pfsp->times = {5, 3, 8, 1, 9, 4};
  EXPECT_EQ(compact("pfsp", 0).prompt(*pfsp), "PFSP:#1 5 3 8;#2 1 9 4;");

  auto jssp = std::make_shared<jssp::JsspInstance>();
  jssp->jobs = 2, jssp->machines = 2;
  jssp->routes = {{{0, 5}, {1, 3}}, {{1, 4}, {0, 6}}};
  EXPECT_EQ(compact("jssp", 0).prompt(*jssp), "JSSP:#1 1 5 2 3;#2 2 4 1 6;");
}

TEST(TextStyle, EveryProblemsCompactTextRoundTripsThroughItsGrammar) {
  for (const std::string_view problem : problem_names()) {
    const std::string name(problem);
    const Problem& paper = problem_by_name(name);
    const Problem& p = compact(name, 3);
    GenerateOptions options;
    options.n = 8;
    const auto inst = p.generate(options, 4);
    const Solution solution = repaired_full_list(p, *inst);
    ASSERT_FALSE(solution.items().empty()) << name;
    const std::string text = p.format(*inst, solution);
    EXPECT_TRUE(p.grammar(*inst).accepts(text)) << name << ": " << text;
    EXPECT_FALSE(p.grammar(*inst).accepts(paper.format(*inst, solution))) << name;
    const ParseResult back = p.parse(text);
    ASSERT_TRUE(back.solution.has_value()) << name << ": " << back.error;
    EXPECT_EQ(*back.solution, solution) << name;
    EXPECT_EQ(p.grammar_name(), name + "_compact");
    EXPECT_EQ(p.prompt(*inst).substr(0, name.size() + 1), paper.prompt(*inst).substr(0, name.size()) + ":") << name;
  }
}

TEST(TextStyle, DescribeNamesStyleAndCandidates) {
  EXPECT_EQ(describe(TextStyle{}), "paper");
  EXPECT_EQ(describe(make_text_style("compact", 0, "t")), "compact");
  EXPECT_EQ(describe(make_text_style("compact", 4, "t")), "compact, 4 candidates");
}

// Note picks and the heuristic sampler read a note as the next pick's choices: only the ranked
// styles' notes are; an echo's or a state's note is not ranked, and the paper's text has none.
TEST(TextStyle, OnlyRankedNotesAreChoices) {
  for (const char* name : {"compact_ranked", "compact_ranked_opening", "compact_ranked_conflict", "compact_ranked_keyed"})
    EXPECT_TRUE(notes_are_choices(make_text_style(name, 0, "t"))) << name;
  for (const char* name : {"paper", "compact", "compact_echo", "compact_state", "compact_insert"})
    EXPECT_FALSE(notes_are_choices(make_text_style(name, 0, "t"))) << name;
}

// A model of several problems writes each in its own style; the others in the default one.
TEST(TextStyle, EachProblemMayHaveItsOwnStyle) {
  auto style = make_text_style("compact", 4, "t");
  EXPECT_FALSE(writes_notes(style));
  set_problem_text_style(style, "pfsp", "compact_insert", 0, "t");
  set_problem_text_style(style, "op", "compact_ranked", 4, "t");
  ASSERT_EQ(style.per_problem.size(), 2u);
  EXPECT_EQ(style.per_problem[0].problem, "op");  // sorted, so equal styles compare equal
  EXPECT_TRUE(writes_notes(style));
  EXPECT_EQ(describe(style), "compact, 4 candidates; op: compact_ranked, 4 candidates; pfsp: compact_insert");
  EXPECT_EQ(style.for_problem("pfsp"), make_text_style("compact_insert", 0, "t"));
  EXPECT_EQ(style.for_problem("tsp"), make_text_style("compact", 4, "t"));
  EXPECT_FALSE(writes_notes(style.for_problem("tsp")));

  const Problem& tsp = problem_by_name("tsp");
  const Problem& pfsp = problem_by_name("pfsp");
  EXPECT_EQ(&with_text_style(tsp, style), &compact_tsp(4));
  EXPECT_TRUE(with_text_style(pfsp, style).text_format().echo);  // the insertion text's notes
  EXPECT_EQ(&with_text_style(pfsp, style), &with_text_style(pfsp, make_text_style("compact_insert", 0, "t")));

  auto error_of = [&](std::string_view problem, std::string_view name, int candidates) -> std::string {
    try {
      set_problem_text_style(style, problem, name, candidates, "r.yaml: text.problems");
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error_of("op", "compact", 4).find("r.yaml: text.problems: op has a text style already"), std::string::npos);
  EXPECT_NE(error_of("tspp", "compact", 4).find("r.yaml: text.problems: unknown problem 'tspp'"), std::string::npos);
  EXPECT_NE(error_of("mis", "fancy", 0).find("unknown text style 'fancy'"), std::string::npos);
  EXPECT_EQ(style.per_problem.size(), 2u);
}


TEST(SymmetricCopy, TspKeepsTheObjectiveAndChangesTheText) {
  GenerateOptions options;
  options.n = 12;
  const Problem& tsp = problem_by_name("tsp");
  const auto inst = tsp.generate(options, 5);
  std::vector<int> order{0, 3, 1, 7, 2, 9, 4, 11, 5, 8, 6, 10};
  const Solution tour = Solution::flat(order);
  Rng rng(1);
  std::set<std::string> texts;
  for (int k = 0; k < 16; ++k) {
    const SymmetricCopy copy = tsp.symmetric_copy(*inst, tour, rng);
    EXPECT_TRUE(tsp.feasible(*copy.instance, copy.solution));
    EXPECT_EQ(copy.solution.items().front(), 0);  // labels start at node 0
    EXPECT_NEAR(tsp.objective(*copy.instance, copy.solution), tsp.objective(*inst, tour), 1e-9);
    for (const auto& p : static_cast<const tsp::TspInstance&>(*copy.instance).geometry.coords) {
      EXPECT_GE(p.x, 0.0);
      EXPECT_LT(p.x, 1.0);  // unit-square instances stay in the square: same prompt grid
      EXPECT_GE(p.y, 0.0);
      EXPECT_LT(p.y, 1.0);
    }
    texts.insert(tsp.prompt(*copy.instance) + tsp.format(*copy.instance, copy.solution));
  }
  EXPECT_GT(texts.size(), 12u);
  // The compact style draws the same copies.
  Rng a(9), b(9);
  EXPECT_EQ(compact_tsp(4).symmetric_copy(*inst, tour, a).solution, tsp.symmetric_copy(*inst, tour, b).solution);
}

TEST(SymmetricCopy, EveryProblemKeepsFeasibilityAndTheObjectiveExactlyAndCarriesBack) {
  for (const std::string_view problem : problem_names()) {
    const std::string name(problem);
    const Problem& p = problem_by_name(name);
    GenerateOptions options;
    options.n = 9;
    const auto inst = p.generate(options, 3);
    const Solution label = repaired_full_list(p, *inst);
    ASSERT_TRUE(p.feasible(*inst, label)) << name;
    Rng rng(2);
    std::set<std::string> texts;
    for (int k = 0; k < 12; ++k) {
      const SymmetricCopy copy = p.symmetric_copy(*inst, label, rng);
      EXPECT_EQ(copy.instance->size(), inst->size()) << name;
      EXPECT_TRUE(p.feasible(*copy.instance, copy.solution)) << name;
      // Distances are carried, not recomputed: only the order of a sum may change the objective.
      EXPECT_NEAR(p.objective(*copy.instance, copy.solution), p.objective(*inst, label),
                  1e-12 * std::abs(p.objective(*inst, label))) << name;
      texts.insert(p.prompt(*copy.instance) + p.format(*copy.instance, copy.solution));
      // Carried back, the label is one of the instance again with its objective, and so is a
      // solution of the copy that is not the label's (its first list's first half, repaired).
      const Solution back = original_solution(copy, copy.solution);
      EXPECT_TRUE(p.feasible(*inst, back)) << name;
      EXPECT_NEAR(p.objective(*inst, back), p.objective(*inst, label), 1e-12 * std::abs(p.objective(*inst, label)));
      Solution partial = copy.solution;
      partial.lists.front().resize(partial.lists.front().size() / 2);
      const Solution fixed = p.repair(*copy.instance, partial);
      const Solution fixed_back = original_solution(copy, fixed);
      EXPECT_TRUE(p.feasible(*inst, fixed_back)) << name;
      EXPECT_NEAR(p.objective(*inst, fixed_back), p.objective(*copy.instance, fixed),
                  1e-9 * std::max(1.0, std::abs(p.objective(*inst, label)))) << name;
    }
    EXPECT_GT(texts.size(), 6u) << name;
  }
}

TEST(SymmetricCopy, FixedPointsAndOrderConventions) {
  GenerateOptions options;
  options.n = 10;
  Rng rng(4);
  // OP: the depot (start = end = 0) keeps its ID and its prize.
  const Problem& op = problem_by_name("op");
  const auto op_inst = op.generate(options, 1);
  const auto& op_typed = static_cast<const op::OpInstance&>(*op_inst);
  const Solution op_route = op.repair(*op_inst, Solution::flat({1, 2, 3}));
  for (int k = 0; k < 8; ++k) {
    const auto copy = op.symmetric_copy(*op_inst, op_route, rng);
    const auto& c = static_cast<const op::OpInstance&>(*copy.instance);
    EXPECT_EQ(c.start, 0);
    EXPECT_EQ(c.prizes[0], op_typed.prizes[0]);
    EXPECT_EQ(c.budget, op_typed.budget);
  }
  // CVRP: the depot stays node 0 with demand 0; the routes keep their count.
  const Problem& cvrp = problem_by_name("cvrp");
  const auto cvrp_inst = cvrp.generate(options, 1);
  const Solution routes = cvrp.repair(*cvrp_inst, Solution::flat({1, 2, 3, 4, 5, 6, 7, 8, 9}));
  const auto copy = cvrp.symmetric_copy(*cvrp_inst, routes, rng);
  EXPECT_EQ(static_cast<const cvrp::CvrpInstance&>(*copy.instance).demands[0], 0);
  EXPECT_EQ(copy.solution.lists.size(), routes.lists.size());
  // MIS: the copy's set is written ascending, as labels are.
  const Problem& mis = problem_by_name("mis");
  const auto graph = mis.generate(options, 1);
  const Solution set = mis.repair(*graph, Solution::flat({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  const auto mis_copy = mis.symmetric_copy(*graph, set, rng);
  EXPECT_TRUE(std::is_sorted(mis_copy.solution.items().begin(), mis_copy.solution.items().end()));
  // JSSP: a machine's sequence moves with the machine: the job sequence on machine k of the copy
  // holds the jobs whose routes use machine k there.
  const Problem& jssp = problem_by_name("jssp");
  options.params["m"] = "4";
  const auto shop = jssp.generate(options, 1);
  const Solution schedule = jssp.repair(*shop, Solution{});
  const auto moved = jssp.symmetric_copy(*shop, schedule, rng);
  const auto& j = static_cast<const jssp::JsspInstance&>(*moved.instance);
  for (int k = 0; k < j.machines; ++k)
    for (int job : moved.solution.lists[k]) {
      bool uses = false;
      for (const auto& op : j.routes[job]) uses = uses || op.machine == k;
      EXPECT_TRUE(uses) << "machine " << k << " job " << job;
    }
  // The compact style draws the same copies as the paper's.
  Rng a(9), b(9);
  const Problem& compact_cvrp = with_text_style(cvrp, make_text_style("compact", 4, "test"));
  EXPECT_EQ(compact_cvrp.symmetric_copy(*cvrp_inst, routes, a).solution, cvrp.symmetric_copy(*cvrp_inst, routes, b).solution);
}

}  // namespace
}  // namespace falcon::problems
