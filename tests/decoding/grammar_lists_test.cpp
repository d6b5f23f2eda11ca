// The seven grammars against the strings they must accept and reject (0 wrongly accepted,
// 0 wrongly rejected), against GrammarSpec::accepts (the reference recogniser) on mutated
// and random strings, and against the formatter on real solver outputs.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/decoding/builtin_grammars.h"
#include "falcon/decoding/byte_dfa.h"
#include "falcon/problems/registry.h"
#include "falcon/formats/text_style.h"
#include "falcon/solvers/solver.h"
#include "test_util.h"

namespace falcon::decoding {
namespace {

struct Case {
  std::string problem;
  int n;
  std::vector<std::string> pass;
  std::vector<std::string> fail;
};

ByteDfa dfa_for(const problems::GrammarSpec& spec, const std::string& problem) {
  return ByteDfa::compile(builtin_grammar(problem), {spec.first_index, spec.last_index});
}

// The problem's grammar for size n; generators need n >= 3 or so, so the range is shifted
// from a generated size-5 instance rather than generated at n.
problems::GrammarSpec spec_for(const std::string& problem, int n) {
  problems::GrammarSpec spec = problems::problem_by_name(problem).grammar(*testing::make_instance(problem, 5));
  spec.last_index += n - 5;
  return spec;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"tsp",
       102,  // indices 0..101
       {"Route: [0], Objective: 0.00", "Route: [101, 0, 5], Objective: 12.34", "Route: [3, 3], Objective: 1.0",
        "Route: [100, 10, 1], Objective: 0123.4500", "Route: [99], Objective: 7.5"},
       {"Route: [102], Objective: 1.00", "Route: [1020], Objective: 1.00", "Route: [01], Objective: 1.00",
        "Route: [00], Objective: 1.00", "Route: [], Objective: 1.00", "Route: [1,2], Objective: 1.00",
        "Route: [1, 2] , Objective: 1.00", "Route: [1, 2], Objective: 1", "Route: [1, 2], Objective: .5",
        "Route: [1, 2], Objective: 1.", "Route: [1, 2], Objective: 1.00 ", "Route: [1, 2], Objective: 1.00\n",
        "Route: [-1], Objective: 1.00", "route: [1], Objective: 1.00", "Route:[1], Objective: 1.00",
        "Route: [1, ], Objective: 1.00", "Route: [ 1], Objective: 1.00", "Routes: [[1]], Objective: 1.00",
        "Route: [1, 2], Objective: -1.00", "Route: [1, 2], Objective: 1e5", "Route: [1  2], Objective: 1.00",
        "Route: [1, 2]", "Route: [1, 2], Objective: ", "Route: [[1]], Objective: 1.00", "", "Route: [1]],Objective: 1.0"}},
      {"op",
       20,  // 0..19, empty allowed
       {"Route: [], Objective: 0.00", "Route: [4, 2], Objective: 7.00", "Route: [0, 19], Objective: 1.5"},
       {"Route: [20], Objective: 1.00", "Route: [ ], Objective: 0.00", "Route: [4, ], Objective: 1.00",
        "Route: [04], Objective: 1.00", "Set: [], Objective: 0.00", "Route: [[]], Objective: 0.00"}},
      {"cvrp",
       21,  // customers 1..20
       {"Routes: [[1, 2], [3]], Objective: 5.30", "Routes: [[20]], Objective: 1.00",
        "Routes: [[1], [1], [1]], Objective: 1.00"},
       {"Routes: [[0, 1]], Objective: 1.00", "Routes: [[21]], Objective: 1.00", "Routes: [], Objective: 0.00",
        "Routes: [[]], Objective: 0.00", "Routes: [[1], []], Objective: 0.00", "Routes: [1, 2], Objective: 1.00",
        "Routes: [[1],[2]], Objective: 1.00", "Routes: [[1]] , Objective: 1.00", "Routes: [[1], [2]]], Objective: 1.00",
        "Routes: [[1] [2]], Objective: 1.00", "Route: [[1]], Objective: 1.00", "Routes: [[1, [2]]], Objective: 1.00"}},
      {"mis",
       50,
       {"Set: [], Objective: 0.00", "Set: [0, 49, 7], Objective: 3.00"},
       {"Set: [50], Objective: 1.00", "Set: [007], Objective: 1.00", "Set: [[1]], Objective: 1.00",
        "Set: [1], Objective: 1,00"}},
      {"mvc",
       10,
       {"Set: [], Objective: 0.00", "Set: [9, 0], Objective: 2.00"},
       {"Set: [10], Objective: 1.00", "Set: [9 0], Objective: 2.00"}},
      {"pfsp",
       102,  // jobs 1..102
       {"Order: [1], Objective: 1.00", "Order: [102, 1, 10], Objective: 40.00"},
       {"Order: [0], Objective: 1.00", "Order: [103], Objective: 1.00", "Order: [], Objective: 0.00",
        "Order: [01], Objective: 1.00", "Route: [1], Objective: 1.00"}},
      {"jssp",
       3,  // jobs 1..3
       {"Schedule: [[1, 2, 3], [3, 1, 2]], Objective: 10.00", "Schedule: [[2]], Objective: 1.00",
        "Schedule: [[1, 1], [2], [3], [1]], Objective: 1.00"},
       {"Schedule: [[0, 1]], Objective: 10.00", "Schedule: [[4]], Objective: 1.00", "Schedule: [], Objective: 1.00",
        "Schedule: [[1, 2, 3], []], Objective: 10.00", "Schedule: [1, 2, 3], Objective: 10.00",
        "Schedule: [[1, 2, 3]], [[1]], Objective: 1.00", "Schedule: [[1, 2, 3],[1]], Objective: 1.00"}},
  };
  return c;
}

TEST(GrammarLists, PassingAndFailingStringsPerProblem) {
  int wrongly_accepted = 0, wrongly_rejected = 0;
  for (const Case& c : cases()) {
    const problems::GrammarSpec spec = spec_for(c.problem, c.n);
    const ByteDfa dfa = dfa_for(spec, c.problem);
    for (const auto& s : c.pass) {
      EXPECT_TRUE(dfa.accepts(s)) << c.problem << ": '" << s << "'";
      EXPECT_TRUE(spec.accepts(s)) << c.problem << " (GrammarSpec): '" << s << "'";
      wrongly_rejected += !dfa.accepts(s);
    }
    for (const auto& s : c.fail) {
      EXPECT_FALSE(dfa.accepts(s)) << c.problem << ": '" << s << "'";
      EXPECT_FALSE(spec.accepts(s)) << c.problem << " (GrammarSpec): '" << s << "'";
      wrongly_accepted += dfa.accepts(s);
    }
  }
  EXPECT_EQ(wrongly_accepted, 0);
  EXPECT_EQ(wrongly_rejected, 0);
}

TEST(GrammarLists, IndexBoundsFollowTheInstance) {
  // The last index is accepted, the next one is not, whatever the number of digits.
  for (const std::string problem : {"tsp", "op", "cvrp", "mis", "pfsp", "jssp"}) {
    for (int n : {2, 9, 10, 11, 99, 100, 101, 102, 999, 1000}) {
      if (problem == "cvrp" && n < 2) continue;
      const problems::GrammarSpec spec = spec_for(problem, n);
      const ByteDfa dfa = dfa_for(spec, problem);
      const auto& fmt = problems::problem_by_name(problem).text_format();
      auto text = [&](long long v) {
        const std::string list = "[" + std::to_string(v) + "]";
        return fmt.keyword + ": [" + (fmt.nested ? list : list.substr(1, list.size() - 2)) + "], Objective: 1.00";
      };
      EXPECT_TRUE(dfa.accepts(text(spec.last_index))) << problem << " n=" << n;
      EXPECT_TRUE(dfa.accepts(text(spec.first_index))) << problem << " n=" << n;
      EXPECT_FALSE(dfa.accepts(text(spec.last_index + 1))) << problem << " n=" << n;
      EXPECT_FALSE(dfa.accepts(text(spec.first_index - 1))) << problem << " n=" << n;
      EXPECT_FALSE(dfa.accepts(text(spec.last_index * 10))) << problem << " n=" << n;
    }
  }
}

// Sentences the DFA generates (random walks to acceptance), to be mutated below.
std::string random_sentence(const ByteDfa& dfa, Rng& rng) {
  std::string s;
  int q = dfa.start();
  for (int steps = 0; steps < 400; ++steps) {
    std::vector<int> bytes;
    for (int b = 0; b < 256; ++b)
      if (dfa.step(q, static_cast<unsigned char>(b)) >= 0) bytes.push_back(b);
    if (dfa.accepting(q) && (bytes.empty() || rng.bernoulli(0.3))) return s;
    const int b = bytes[rng.uniform_int(0, static_cast<int>(bytes.size()) - 1)];
    s += static_cast<char>(b);
    q = dfa.step(q, static_cast<unsigned char>(b));
  }
  // Finish the shortest way: a breadth-first search from q to the nearest accepting state.
  std::vector<int> parent(static_cast<std::size_t>(dfa.num_states()), -2), via(parent.size(), 0);
  std::vector<int> queue{q};
  parent[q] = -1;
  int end = -1;
  for (std::size_t head = 0; head < queue.size() && end < 0; ++head) {
    const int from = queue[head];
    if (dfa.accepting(from)) end = from;
    for (int b = 0; b < 256 && end < 0; ++b) {
      const int to = dfa.step(from, static_cast<unsigned char>(b));
      if (to < 0 || parent[to] != -2) continue;
      parent[to] = from;
      via[to] = b;
      queue.push_back(to);
    }
  }
  std::string tail;
  for (int at = end; at >= 0 && parent[at] >= 0; at = parent[at]) tail += static_cast<char>(via[at]);
  return s + std::string(tail.rbegin(), tail.rend());
}

std::string mutate(std::string s, Rng& rng) {
  static const std::string kBytes = "0123456789[], .:-ObjectiveRouteSetOrdrShl\n";
  const int edits = rng.uniform_int(1, 3);
  for (int e = 0; e < edits; ++e) {
    const int pos = s.empty() ? 0 : rng.uniform_int(0, static_cast<int>(s.size()));
    const char c = kBytes[rng.uniform_int(0, static_cast<int>(kBytes.size()) - 1)];
    switch (rng.uniform_int(0, 2)) {
      case 0: s.insert(s.begin() + pos, c); break;
      case 1: if (pos < static_cast<int>(s.size())) s.erase(s.begin() + pos); break;
      default: if (pos < static_cast<int>(s.size())) s[pos] = c; break;
    }
  }
  return s;
}

TEST(GrammarLists, DfaAgreesWithGrammarSpecOnRandomAndMutatedStrings) {
  Rng rng(7);
  int accepted = 0, total = 0;
  for (const auto name : problems::problem_names()) {
    const std::string problem(name);
    for (int n : {1, 3, 12, 102}) {
      if (problem == "cvrp" && n < 2) continue;
      const problems::GrammarSpec spec = spec_for(problem, n);
      const ByteDfa dfa = dfa_for(spec, problem);
      const problems::Problem& p = problems::problem_by_name(problem);
      for (int k = 0; k < 300; ++k) {
        const std::string sentence = random_sentence(dfa, rng);
        ASSERT_TRUE(dfa.accepts(sentence));
        EXPECT_TRUE(spec.accepts(sentence)) << problem << " n=" << n << " '" << sentence << "'";
        // Whatever the grammar accepts, the strict parser reads.
        EXPECT_TRUE(p.parse(sentence).solution.has_value()) << problem << " '" << sentence << "'";
        for (int m = 0; m < 10; ++m) {
          const std::string mutated = mutate(sentence, rng);
          ++total;
          accepted += spec.accepts(mutated);
          ASSERT_EQ(dfa.accepts(mutated), spec.accepts(mutated)) << problem << " n=" << n << " '" << mutated << "'";
          if (dfa.accepts(mutated)) EXPECT_TRUE(p.parse(mutated).solution.has_value()) << mutated;
        }
      }
    }
  }
  EXPECT_GT(accepted, total / 50);  // the mutations hit both sides
  EXPECT_LT(accepted, total / 2);
}

TEST(GrammarLists, FormattedSolverOutputsAreAccepted) {
  for (const auto name : problems::problem_names()) {
    const std::string problem(name);
    const problems::Problem& p = problems::problem_by_name(problem);
    for (int n : {5, 20, 101}) {
      const auto instance = testing::make_instance(problem, n, static_cast<std::uint64_t>(n));
      const problems::GrammarSpec spec = p.grammar(*instance);
      const ByteDfa dfa = dfa_for(spec, problem);
      for (const auto* solver : solvers::solvers_for(problem)) {
        if (solver->method == "reference" && n > 20) continue;  // keep the test fast
        solvers::SolveOptions options;
        options.time_limit_s = 0.05;
        const std::string text = p.format(*instance, solver->solve(*instance, options));
        EXPECT_TRUE(dfa.accepts(text)) << problem << "/" << solver->method << " n=" << n << ": " << text;
        EXPECT_EQ(dfa.accepts(text), spec.accepts(text)) << text;
        // Repaired garbage formats into the grammar too.
        Rng rng(static_cast<std::uint64_t>(n));
        problems::Solution garbage;
        garbage.lists.resize(spec.nested ? 3 : 1);
        for (auto& list : garbage.lists)
          for (int k = 0; k < n; ++k) list.push_back(rng.uniform_int(-2, n + 2));
        const std::string repaired = p.format(*instance, p.repair(*instance, garbage));
        EXPECT_EQ(dfa.accepts(repaired), spec.accepts(repaired)) << repaired;
        EXPECT_TRUE(dfa.accepts(repaired)) << problem << " n=" << n << ": " << repaired;
      }
    }
  }
}

}  // namespace
}  // namespace falcon::decoding

namespace falcon::decoding {
namespace {

// The grammars of the styles with notes (compact_echo, compact_ranked, compact_insert): every
// text the formatter writes for a solver's solution is a sentence, every sentence the grammar
// generates is read by the strict parser (and the lenient one reads the same indices: a note's
// IDs and numbers are not indices), and a missing or malformed note is rejected.
TEST(GrammarLists, EchoGrammarsAgreeWithTheFormatterAndTheParsers) {
  Rng rng(8);
  for (const auto& [problem, style] : std::vector<std::pair<std::string, std::string>>{
           {"mis", "compact_echo"}, {"mvc", "compact_echo"}, {"cvrp", "compact_echo"}, {"pfsp", "compact_ranked"},
           {"cvrp", "compact_ranked"}, {"op", "compact_ranked"}, {"mis", "compact_ranked"}, {"pfsp", "compact_insert"}}) {
    const problems::Problem& p =
        formats::with_text_style(problems::problem_by_name(problem), formats::make_text_style(style, 0, "test"));
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const auto instance = testing::make_instance(problem, 12, seed);
      const problems::GrammarSpec spec = p.grammar(*instance);
      const ByteDfa dfa = ByteDfa::compile(builtin_grammar(p.grammar_name()), {spec.first_index, spec.last_index});
      const problems::Solution label = solvers::solver_by_name(problem, "reference").solve(*instance, {});
      const std::string text = p.format(*instance, label);
      EXPECT_TRUE(dfa.accepts(text)) << problem << ": " << text;
      for (int k = 0; k < 100; ++k) {
        const std::string sentence = random_sentence(dfa, rng);
        const auto strict = p.parse(sentence);
        ASSERT_TRUE(strict.solution.has_value()) << problem << " '" << sentence << "': " << strict.error;
        EXPECT_EQ(p.parse(sentence, /*lenient=*/true).solution, strict.solution) << problem << " '" << sentence << "'";
      }
    }
  }
  const auto set = ByteDfa::compile(builtin_grammar("mis_echo"), {0, 20});
  EXPECT_TRUE(set.accepts("Set: [#1 (#4#5), #3 ()], Objective: 2.00"));
  EXPECT_FALSE(set.accepts("Set: [#1, #3 ()], Objective: 2.00"));
  EXPECT_FALSE(set.accepts("Set: [#1 (4), #3 ()], Objective: 2.00"));
  EXPECT_FALSE(set.accepts("Set: [#1 (#21)], Objective: 2.00"));
  const auto routes = ByteDfa::compile(builtin_grammar("cvrp_echo"), {1, 20});
  EXPECT_TRUE(routes.accepts("Routes: [[#3 (6 24), #7 (7 17)], [#1 (5 25)]], Objective: 6.02"));
  EXPECT_FALSE(routes.accepts("Routes: [[#3 (24), #7 (7 17)]], Objective: 6.02"));  // the demand missing
  EXPECT_FALSE(routes.accepts("Routes: [[#3 (), #7 (7 17)]], Objective: 6.02"));
  EXPECT_FALSE(routes.accepts("Routes: [[#3 (#4)]], Objective: 6.02"));
  const auto ranked_routes = ByteDfa::compile(builtin_grammar("cvrp_ranked"), {1, 20});
  EXPECT_TRUE(ranked_routes.accepts("Routes: [[#3 (#7#1), #7 (#0#1)], [#1 ()]], Objective: 6.02"));
  EXPECT_FALSE(ranked_routes.accepts("Routes: [[#3 (#7#0#1)]], Objective: 6.02"));  // "#0" only first
  EXPECT_FALSE(ranked_routes.accepts("Routes: [[#3 (6 24)]], Objective: 6.02"));
  const auto order = ByteDfa::compile(builtin_grammar("pfsp_echo"), {1, 3});
  EXPECT_TRUE(order.accepts("Order: [#1 (#3#2), #3 (#2), #2 ()], Objective: 16.00"));
  EXPECT_FALSE(order.accepts("Order: [#1 (#3#2), #3, #2 ()], Objective: 16.00"));  // a note missing
  EXPECT_FALSE(order.accepts("Order: [#1 (#4), #3 (), #2 ()], Objective: 16.00"));
  const auto insertions = ByteDfa::compile(builtin_grammar("pfsp_insert"), {0, 3});
  EXPECT_TRUE(insertions.accepts("Order: [#0 (#2:#0#1), #0 (#3:#2#1#0), #2 ()], Objective: 8.00"));
  EXPECT_FALSE(insertions.accepts("Order: [#0 (#2#0#1), #0 (), #2 ()], Objective: 8.00"));  // no ':' after the job
  EXPECT_FALSE(insertions.accepts("Order: [#0 (#2:), #0 (), #2 ()], Objective: 8.00"));     // a job with no place
  EXPECT_FALSE(insertions.accepts("Order: [#0 (#2:#0#4), #0 ()], Objective: 8.00"));
}

}  // namespace
}  // namespace falcon::decoding
