// The semantic mask: each family's rules on hand-made instances (byte by byte), and the fast
// mask (one trie walk with take-backs) against the slow one (a copy of the tracker fed each
// token's bytes) at states along sampled sequences, on multi-byte vocabularies.
#include "falcon/decoding/semantic.h"

#include <gtest/gtest.h>

#include "falcon/core/error.h"
#include "falcon/decoding/grammar_state.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/jssp.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/op.h"
#include "falcon/problems/registry.h"
#include "falcon/formats/text_style.h"
#include "test_util.h"

namespace falcon::decoding {
namespace {

using testing::make_instance;
using testing::sample_uniform;

// The bytes the semantic mask allows after `prefix`.
std::string allowed_after(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                          const std::string& prefix) {
  GrammarOptions options;
  options.semantic = true;
  return testing::allowed_after(problem, std::move(instance), options, prefix);
}

std::string allowed_after(const std::string& problem, std::shared_ptr<const problems::Instance> instance,
                          const std::string& prefix) {
  return allowed_after(problems::problem_by_name(problem), std::move(instance), prefix);
}

TEST(SemanticMask, TspVisitsEveryNodeOnce) {
  const auto tsp = make_instance("tsp", 3);
  EXPECT_EQ(allowed_after("tsp", tsp, "Route: ["), "012");
  EXPECT_EQ(allowed_after("tsp", tsp, "Route: [0"), ",");        // not "]" before all are visited
  EXPECT_EQ(allowed_after("tsp", tsp, "Route: [0, "), "12");     // 0 is taken
  EXPECT_EQ(allowed_after("tsp", tsp, "Route: [0, 2, "), "1");
  EXPECT_EQ(allowed_after("tsp", tsp, "Route: [0, 2, 1"), "]");  // no ", ": nothing is left
  EXPECT_EQ(allowed_after("tsp", tsp, "Route: [0, 2, 1], Objective: 1"), ".0123456789");
  EXPECT_EQ(allowed_after("tsp", tsp, "Route: [0, 2, 1], Objective: 1.5"), "0123456789<eos>");
  EXPECT_EQ(allowed_after("tsp", tsp, "Route: [0, 0"), "refused '0'");
}

TEST(SemanticMask, CompactTspVisitsEveryNodeOnce) {  // IDs written "#k"
  const auto tsp = make_instance("tsp", 3);
  const auto& compact = formats::with_text_style(problems::problem_by_name("tsp"), {"compact", 2});
  EXPECT_EQ(allowed_after(compact, tsp, "Route: ["), "#");
  EXPECT_EQ(allowed_after(compact, tsp, "Route: [#"), "012");
  EXPECT_EQ(allowed_after(compact, tsp, "Route: [#0, #"), "12");
  EXPECT_EQ(allowed_after(compact, tsp, "Route: [#0, #2, #1"), "]");
  EXPECT_EQ(allowed_after(compact, tsp, "Route: [#0, #0"), "refused '0'");
}

TEST(SemanticMask, DigitsSoFarMustStartSomeLegalIndex) {
  const auto tsp = make_instance("tsp", 12);  // 0..11
  EXPECT_EQ(allowed_after("tsp", tsp, "Route: [1"), ",01");  // 1 is free, 10 and 11 too
  EXPECT_EQ(allowed_after("tsp", tsp, "Route: [10, 11, 1"), ",");  // 10, 11 taken: only 1 itself
  EXPECT_EQ(allowed_after("tsp", tsp, "Route: [1, 10, 11, "), "023456789");  // no prefix of a free index is "1"
  const auto pfsp = make_instance("pfsp", 12);  // jobs 1..12
  EXPECT_EQ(allowed_after("pfsp", pfsp, "Order: ["), "123456789");
  EXPECT_EQ(allowed_after("pfsp", pfsp, "Order: [1"), ",012");
  EXPECT_EQ(allowed_after("pfsp", pfsp, "Order: [1, 10, 11, 12, "), "23456789");
}

TEST(SemanticMask, MisForbidsNeighboursOfChosenVertices) {
  auto g = std::make_shared<problems::GraphInstance>();
  g->graph = problems::Graph::from_edges(5, {{0, 1}, {1, 2}, {3, 4}});
  EXPECT_EQ(allowed_after("mis", g, "Set: ["), "01234]");
  EXPECT_EQ(allowed_after("mis", g, "Set: [1, "), "34");
  EXPECT_EQ(allowed_after("mis", g, "Set: [1"), ",]");
  EXPECT_EQ(allowed_after("mis", g, "Set: [1, 0"), "refused '0'");  // a neighbour of 1
  EXPECT_EQ(allowed_after("mis", g, "Set: [1, 3"), "]");     // 0, 2, 4 are all blocked: no ", "
  EXPECT_EQ(allowed_after("mis", g, "Set: [0, 2, 4"), "]");   // 3 is a neighbour of 4
  EXPECT_EQ(allowed_after("mis", g, "Set: [0, 2"), ",]");     // 3 and 4 are free
  EXPECT_EQ(allowed_after("mvc", g, "Set: [1"), ",");         // MVC: (3, 4) is not covered yet
  EXPECT_EQ(allowed_after("mvc", g, "Set: [1, "), "0234");
  EXPECT_EQ(allowed_after("mvc", g, "Set: [1, 3"), ",]");
}

TEST(SemanticMask, CvrpCapacityAndRouting) {
  auto base = std::static_pointer_cast<const problems::cvrp::CvrpInstance>(make_instance("cvrp", 5));
  auto cvrp = std::make_shared<problems::cvrp::CvrpInstance>(*base);
  cvrp->demands = {0, 5, 5, 5, 6};
  cvrp->capacity = 10;
  EXPECT_EQ(allowed_after("cvrp", cvrp, "Routes: ["), "[");
  EXPECT_EQ(allowed_after("cvrp", cvrp, "Routes: [[1"), ",]");
  EXPECT_EQ(allowed_after("cvrp", cvrp, "Routes: [[1, "), "23");  // 4 (demand 6) does not fit
  EXPECT_EQ(allowed_after("cvrp", cvrp, "Routes: [[1, 2"), "]");  // full: no ", "
  EXPECT_EQ(allowed_after("cvrp", cvrp, "Routes: [[1, 2]"), ",");  // customers 3, 4 are left
  EXPECT_EQ(allowed_after("cvrp", cvrp, "Routes: [[1, 2], ["), "34");
  EXPECT_EQ(allowed_after("cvrp", cvrp, "Routes: [[1, 2], [4"), "]");  // 6 + 5 > 10
  EXPECT_EQ(allowed_after("cvrp", cvrp, "Routes: [[1], [2"), ",]");  // 3 still fits
  EXPECT_EQ(allowed_after("cvrp", cvrp, "Routes: [[1, 2], [4], [3]"), "]");
  EXPECT_EQ(allowed_after("cvrp", cvrp, "Routes: [[1, 2], [4], [3]], Objective: 1.0"), "0123456789<eos>");
}

TEST(SemanticMask, OpBudgetCountsTheWayBack) {
  auto op = std::make_shared<problems::op::OpInstance>();
  // Nodes on a line: depot at 0, others at 1, 2, 3, 10; budget 6.
  op->geometry = problems::RoutingGeometry::euclidean({{0, 0}, {1, 0}, {2, 0}, {3, 0}, {10, 0}});
  op->prizes = {0, 1, 1, 1, 1};
  op->budget = 6;
  problems::op::validate(*op);
  EXPECT_EQ(allowed_after("op", op, "Route: ["), "123]");  // not 0 (the depot), not 4 (20 > 6)
  EXPECT_EQ(allowed_after("op", op, "Route: [3"), ",]");
  EXPECT_EQ(allowed_after("op", op, "Route: [3, "), "12");  // 0 -> 3 -> 1 -> 0 is 6: on the budget
  EXPECT_EQ(allowed_after("op", op, "Route: [2, 3, 1"), "]");  // 2 + 1 + 2 + 1 = 6; nothing else fits
}

TEST(SemanticMask, JsspPermutationPerMachineAndMachineCount) {
  problems::GenerateOptions options;
  options.n = 2;
  options.params["m"] = "2";
  const auto jssp = problems::problem_by_name("jssp").generate(options, 1);
  EXPECT_EQ(allowed_after("jssp", jssp, "Schedule: ["), "[");
  EXPECT_EQ(allowed_after("jssp", jssp, "Schedule: [[2"), ",");   // the list needs both jobs
  EXPECT_EQ(allowed_after("jssp", jssp, "Schedule: [[2, "), "1");
  EXPECT_EQ(allowed_after("jssp", jssp, "Schedule: [[2, 1]"), ",");  // machine 2 is missing
  EXPECT_EQ(allowed_after("jssp", jssp, "Schedule: [[2, 1], [1, 2]"), "]");
}

TEST(SemanticMask, AnotherProblemsInstanceIsAClearError) {
  EXPECT_THROW(problems::problem_by_name("cvrp").semantic_constraint(make_instance("tsp", 5)), Error);
}

// At every state along sampled sequences, the fast mask equals feeding each token to a copy.
void check_fast_equals_slow(const std::string& problem, int n, const Vocabulary& vocabulary, int samples) {
  GrammarOptions options;
  options.semantic = true;
  const auto instance = make_instance(problem, n, 3);
  const GrammarState initial = make_grammar_state(problems::problem_by_name(problem), instance, vocabulary, options);
  Rng rng(5);
  for (int s = 0; s < samples; ++s) {
    GrammarState state = initial;
    bool checked_done = false;  // after the body (the objective) the mask is the row: check once
    for (int step = 0; step < 3000 && !state.is_finished(); ++step) {
      const TokenMask fast = state.mask();
      if (state.semantic_tracker()->done() && checked_done) {
        ASSERT_TRUE(state.accept(sample_uniform(fast, rng)));
        continue;
      }
      checked_done = state.semantic_tracker()->done();
      const TokenMask row = state.automaton().mask(state.automaton_state());
      for (int id = 0; id < vocabulary.size(); ++id) {
        bool slow = row.test(id);
        if (slow) {
          SemanticTracker copy = *state.semantic_tracker();
          slow = copy.feed(vocabulary.bytes(id));
        }
        ASSERT_EQ(fast.test(id), slow) << problem << " token '" << vocabulary.bytes(id) << "' at step " << step;
      }
      ASSERT_GT(fast.count(), 0) << problem << ": stuck";
      ASSERT_TRUE(state.accept(sample_uniform(fast, rng)));
    }
  }
}

TEST(SemanticMask, FastEqualsSlowOnMultiByteVocabularies) {
  const Vocabulary synthetic = Vocabulary::synthetic(4000, 2);
  for (const std::string problem : {"tsp", "op", "cvrp", "mis", "mvc", "pfsp", "jssp"}) {
    for (int n : {12, 105}) {
      check_fast_equals_slow(problem, n, testing::trained_vocabulary(), 8);
      check_fast_equals_slow(problem, n, synthetic, 4);
    }
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace falcon::decoding
