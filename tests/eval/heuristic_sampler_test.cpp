#include "falcon/eval/heuristic_sampler.h"

#include <gtest/gtest.h>

#include <set>

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"
#include "falcon/problems/routing_geometry.h"
#include "falcon/problems/tsp.h"
#include "falcon/solvers/routing_heuristics.h"

namespace falcon::eval {
namespace {

const problems::TextStyle kCompact4 = problems::make_text_style("compact", 4, "<test>");

EvalInstance tsp_instance(int n, std::uint64_t seed) {
  EvalInstance e;
  e.problem = &problems::with_text_style(problems::problem_by_name("tsp"), kCompact4);
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
  const auto fixed = run_heuristic_sampler_row(row(MethodKind::kFixed, 0.5), e, /*seed=*/1);
  EXPECT_TRUE(fixed.feasible_raw);  // a permutation written in the grammar: valid with no repair
  EXPECT_FALSE(fixed.repaired);
  EXPECT_EQ(fixed.samples, 8);
  EXPECT_EQ(fixed.samples_feasible_raw, 8);
  EXPECT_EQ(fixed.row, "heuristic sampler");
  // The same streams give the same answer; another seed another one.
  EXPECT_EQ(run_heuristic_sampler_row(row(MethodKind::kFixed, 0.5), e, 1).text, fixed.text);
  EXPECT_NE(run_heuristic_sampler_row(row(MethodKind::kFixed, 0.5), e, 2).text, fixed.text);

  auto adaptive = row(MethodKind::kAdaptive, 0.5);
  adaptive.rule.n_min = 8;
  adaptive.rule.n_max = 32;
  const auto a = run_heuristic_sampler_row(adaptive, e, 1);
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
    near += *run_heuristic_sampler_row(one, e, 1).gap;
    one.q = 1.0;  // uniform among the listed neighbours
    spread += *run_heuristic_sampler_row(one, e, 1).gap;
    auto many = row(MethodKind::kFixed, 1.0);
    many.n = 16;
    EXPECT_LE(*run_heuristic_sampler_row(many, e, 1).gap, *run_heuristic_sampler_row(one, e, 1).gap);
  }
  // Close to nearest neighbour (the reference here) from a random start; well worse uniformly.
  EXPECT_LT(near / 10, 0.15);
  EXPECT_GT(spread / 10, near / 10);
}

TEST(HeuristicSampler, RefusesATextItDoesNotKnow) {
  EXPECT_NO_THROW(check_heuristic_sampler("tsp", kCompact4));
  EXPECT_THROW(check_heuristic_sampler("tsp", problems::make_text_style("compact", 0, "<test>")), Error);
  EXPECT_THROW(check_heuristic_sampler("op", problems::make_text_style("compact_ranked", 4, "<test>")), Error);
}

}  // namespace
}  // namespace falcon::eval
