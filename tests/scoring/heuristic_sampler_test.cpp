#include "falcon/scoring/heuristic_sampler.h"
#include "falcon/scoring/note_walk.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"
#include "falcon/problems/routing_geometry.h"
#include "falcon/problems/tsp.h"
#include "falcon/solvers/routing_heuristics.h"
#include "falcon/solvers/solver.h"

namespace falcon::scoring {
namespace {

const formats::TextStyle kCompact4 = formats::make_text_style("compact", 4, "<test>");

EvalInstance tsp_instance(int n, std::uint64_t seed) {
  EvalInstance e;
  e.problem = &formats::with_text_style(problems::problem_by_name("tsp"), kCompact4);
  e.instance = e.problem->generate({n, "uniform", {}}, seed);
  e.name = "tsp-" + std::to_string(seed);
  e.key = seed;
  e.reference = problems::tsp::tour_length(static_cast<const problems::tsp::TspInstance&>(*e.instance),
                                           solvers::nearest_neighbor_tour(
                                               static_cast<const problems::tsp::TspInstance&>(*e.instance).geometry, 0));
  return e;
}

RowSpec row(MethodKind kind, double q) {
  RowSpec r;
  r.name = "heuristic sampler";
  r.kind = kind;
  r.heuristic_policy = true;
  r.q = q;
  r.n = 8;
  r.round_size = kind == MethodKind::kAdaptive ? 8 : 0;
  return r;
}

TEST(HeuristicSampler, ReadsTheCandidateListsThePromptShowsTheModel) {
  const auto e = tsp_instance(12, 3);
  const auto lists = prompt_candidate_lists(e.problem->prompt(*e.instance), 12);
  const auto& tsp = static_cast<const problems::tsp::TspInstance&>(*e.instance);
  EXPECT_EQ(lists, problems::nearest_neighbours(tsp.geometry, 4));
}

TEST(HeuristicSampler, WritesValidToursAndChoosesByTheModelRowsRules) {
  const auto e = tsp_instance(20, 5);
  const auto fixed = run_heuristic_sampler_row(row(MethodKind::kFixed, 0.5), e, kCompact4, /*seed=*/1);
  EXPECT_TRUE(fixed.feasible_raw);  // a permutation written in the grammar: valid with no repair
  EXPECT_FALSE(fixed.repaired);
  EXPECT_EQ(fixed.samples, 8);
  EXPECT_EQ(fixed.samples_feasible_raw, 8);
  EXPECT_EQ(fixed.row, "heuristic sampler");
  // The same streams give the same answer; another seed another one.
  EXPECT_EQ(run_heuristic_sampler_row(row(MethodKind::kFixed, 0.5), e, kCompact4, 1).text, fixed.text);
  EXPECT_NE(run_heuristic_sampler_row(row(MethodKind::kFixed, 0.5), e, kCompact4, 2).text, fixed.text);

  auto adaptive = row(MethodKind::kAdaptive, 0.5);
  adaptive.rule.n_min = 8;
  adaptive.rule.n_max = 32;
  const auto a = run_heuristic_sampler_row(adaptive, e, kCompact4, 1);
  EXPECT_GE(a.samples, 8);
  EXPECT_LE(a.samples, 32);
  EXPECT_TRUE(a.stop == "confidence" || a.stop == "budget") << a.stop;
}

TEST(HeuristicSampler, SmallQFollowsTheListsAndMoreSamplesDoNoWorse) {
  double near = 0, spread = 0;
  for (std::uint64_t s = 1; s <= 10; ++s) {
    const auto e = tsp_instance(20, 100 + s);
    auto one = row(MethodKind::kFixed, 0.05);
    one.n = 1;
    near += *run_heuristic_sampler_row(one, e, kCompact4, 1).gap;
    one.q = 1.0;  // uniform among the listed neighbours
    spread += *run_heuristic_sampler_row(one, e, kCompact4, 1).gap;
    auto many = row(MethodKind::kFixed, 1.0);
    many.n = 16;
    EXPECT_LE(*run_heuristic_sampler_row(many, e, kCompact4, 1).gap, *run_heuristic_sampler_row(one, e, kCompact4, 1).gap);
  }
  // Close to nearest neighbour (the reference here) from a random start; well worse uniformly.
  EXPECT_LT(near / 10, 0.15);
  EXPECT_GT(spread / 10, near / 10);
}

// A generated instance written in `style`, its reference the problem's simple heuristic: the first
// solver that is not the reference, or `method`.
EvalInstance noted_instance(const std::string& name, const formats::TextStyle& style, int n, std::uint64_t seed,
                            const std::string& method = "") {
  EvalInstance e;
  e.problem = &formats::with_text_style(problems::problem_by_name(name), style);
  e.instance = e.problem->generate({n, "", {}}, seed);  // the problem's default distribution
  e.name = name + "-" + std::to_string(seed);
  e.key = seed;
  for (const auto* entry : solvers::solvers_for(name))
    if (method.empty() ? entry->method != "reference" : entry->method == method) {
      e.reference = e.problem->objective(*e.instance, entry->solve(*e.instance, solvers::SolveOptions{}));
      break;
    }
  return e;
}

const formats::TextStyle kRanked = formats::make_text_style("compact_ranked", 0, "<test>");
const formats::TextStyle kInsert = formats::make_text_style("compact_insert", 0, "<test>");
const formats::TextStyle kConflict = formats::make_text_style("compact_ranked_conflict", 0, "<test>");
const formats::TextStyle kKeyed = formats::make_text_style("compact_ranked_keyed", 0, "<test>");

// Each problem with the text its sampler walks: JSSP's machine sequences (a noisy MWKR) and its
// dispatch order's notes, all jobs with work left or only those in the conflict set; MIS and MVC
// also with keyed notes.
const std::vector<std::pair<std::string, formats::TextStyle>> kWalked = {
    {"tsp", kRanked},  {"op", kRanked},     {"cvrp", kRanked}, {"mis", kRanked},   {"mvc", kRanked},
    {"pfsp", kInsert}, {"jssp", kCompact4}, {"jssp", kRanked}, {"jssp", kConflict}, {"mis", kKeyed},
    {"mvc", kKeyed}};

TEST(HeuristicSampler, WalksTheNotesToFeasibleAnswersWithoutRepair) {
  for (const auto& [name, style] : kWalked) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const auto e = noted_instance(name, style, 15, seed);
      auto r = row(MethodKind::kFixed, 0.5);
      r.repair = false;
      const auto result = run_heuristic_sampler_row(r, e, style, 1);
      EXPECT_EQ(result.samples_feasible_raw, 8) << name << " seed " << seed << ": " << result.text;
      EXPECT_TRUE(result.feasible) << name;
    }
  }
}

TEST(HeuristicSampler, AlwaysTheNotesFirstChoiceIsTheirHeuristic) {
  // TSP's nearest neighbour from node 0, MIS's min-degree greedy, MVC's max-degree greedy, PFSP's
  // NEH, JSSP's MWKR: at q -> 0 the walk is the heuristic itself, so its gap to the heuristic is 0.
  for (const auto& [name, style] : kWalked) {
    if (name == "op" || name == "cvrp") continue;  // their notes rank by their own rule, not a solver's
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const auto e = noted_instance(name, style, 20, seed, name == "jssp" ? "mwkr" : "");
      auto first = row(MethodKind::kFixed, 1e-12);
      first.n = 1;
      const auto result = run_heuristic_sampler_row(first, e, style, 1);
      ASSERT_TRUE(result.gap.has_value()) << name;
      EXPECT_NEAR(*result.gap, 0.0, 1e-9) << name << " seed " << seed << ": " << result.text;
    }
  }
}

TEST(HeuristicSampler, EndsACvrpRouteWhereItsNoteSaysAndStartsTheNextFromTheRest) {
  const auto e = noted_instance("cvrp", kRanked, 20, 7);
  Rng rng(3);
  const auto items = walk_notes(*e.problem, *e.instance, NotedText::kRanked, 0.5, rng);
  EXPECT_GT(items.lists.size(), 1u);  // 20 customers do not fit one vehicle
  std::vector<int> seen;
  for (const auto& route : items.lists) {
    EXPECT_FALSE(route.empty());
    seen.insert(seen.end(), route.begin(), route.end());
  }
  std::sort(seen.begin(), seen.end());
  std::vector<int> customers(e.instance->size() - 1);
  std::iota(customers.begin(), customers.end(), 1);
  EXPECT_EQ(seen, customers);  // each customer once, the depot never
}

TEST(HeuristicSampler, ReadsANotesChoices) {
  EXPECT_EQ(note_choices("#4#9#12", 0), (std::vector<int>{4, 9, 12}));
  EXPECT_EQ(note_choices("#3:#2#1#0", 1), (std::vector<int>{1, 0, -1}));  // places after ':', 1-based
  EXPECT_EQ(note_choices("", 0), std::vector<int>{});
  EXPECT_EQ(note_choices("1:#4#9 12:#7", 0), (std::vector<int>{4, 9, 7}));  // a keyed note's counts are no choices
}

TEST(HeuristicSampler, RefusesATextItDoesNotKnow) {
  EXPECT_NO_THROW(check_heuristic_sampler("tsp", kCompact4));
  EXPECT_NO_THROW(check_heuristic_sampler("op", formats::make_text_style("compact_ranked", 4, "<test>")));
  EXPECT_NO_THROW(check_heuristic_sampler("pfsp", kInsert));
  EXPECT_THROW(check_heuristic_sampler("tsp", formats::make_text_style("compact", 0, "<test>")), Error);
  EXPECT_NO_THROW(check_heuristic_sampler("jssp", formats::make_text_style("compact", 4, "<test>")));
  EXPECT_THROW(check_heuristic_sampler("mis", formats::make_text_style("compact_state", 0, "<test>")), Error);
}

}  // namespace
}  // namespace falcon::scoring
