// Constrained sampling with random "logits" (a uniform choice among the allowed tokens):
// every finished sample parses with the problem's strict parser and stays in range; with the
// semantic mask on, every sample is feasible before repair.
#include <gtest/gtest.h>

#include <map>

#include "falcon/decoding/grammar_state.h"
#include "falcon/problems/registry.h"
#include "test_util.h"

namespace falcon::decoding {
namespace {

using testing::make_instance;
using testing::sample_text;

const std::vector<std::string> kProblems = [] {  // every registered problem
  std::vector<std::string> names;
  for (const auto name : problems::problem_names()) names.emplace_back(name);
  return names;
}();

bool in_range(const problems::Solution& solution, const problems::GrammarSpec& spec, int index_base) {
  for (const auto& list : solution.lists)
    for (int v : list)
      if (v + index_base < spec.first_index || v + index_base > spec.last_index) return false;
  return true;
}

// 10,000 samples per problem: three sizes (one past 100, so three-digit indices and their
// bounds are exercised) times the byte-level and the trained vocabulary.
TEST(ConstrainedSampling, TenThousandSamplesPerProblemAllParse) {
  const std::vector<std::pair<std::string, Vocabulary>> vocabularies = {{"bytes", Vocabulary::byte_level()},
                                                                         {"trained", testing::trained_vocabulary()}};
  const std::vector<int> sizes{5, 12, 102};
  constexpr int kPerProblem = 10000;
  for (const auto& problem_name : kProblems) {
    const problems::Problem& problem = problems::problem_by_name(problem_name);
    int samples = 0, parsed = 0;
    for (std::size_t k = 0; k < sizes.size() * vocabularies.size(); ++k) {
      const int n = sizes[k % sizes.size()];
      const auto& [vname, vocabulary] = vocabularies[k / sizes.size()];
      const auto instance = make_instance(problem_name, n);
      const problems::GrammarSpec spec = problem.grammar(*instance);
      const GrammarState initial = make_grammar_state(problem, instance, vocabulary);
      Rng rng(1000 + k);
      const int count = (kPerProblem * static_cast<int>(k + 1)) / 6 - (kPerProblem * static_cast<int>(k)) / 6;
      for (int s = 0; s < count; ++s) {
        const std::string text = sample_text(initial, rng);
        ++samples;
        const problems::ParseResult r = problem.parse(text);
        ASSERT_TRUE(r.solution.has_value()) << problem_name << " " << vname << " n=" << n << ": " << r.error << " in '"
                                            << text << "'";
        ASSERT_TRUE(spec.accepts(text)) << text;
        ASSERT_TRUE(in_range(*r.solution, spec, problem.text_format().index_base)) << text;
        ++parsed;
      }
    }
    EXPECT_EQ(samples, kPerProblem);
    EXPECT_EQ(parsed, samples) << problem_name;
  }
}

// With the semantic mask, TSP, PFSP and MIS samples (and OP, CVRP, MVC) are feasible as
// written; JSSP's are m permutations, feasible when the machine orders admit a timetable.
TEST(ConstrainedSampling, SemanticMaskMakesSamplesFeasible) {
  const std::vector<std::pair<std::string, Vocabulary>> vocabularies = {{"bytes", Vocabulary::byte_level()},
                                                                         {"trained", testing::trained_vocabulary()}};
  GrammarOptions options;
  options.semantic = true;
  std::map<std::string, std::pair<int, int>> feasible;  // problem -> (feasible, samples)
  for (const auto& problem_name : kProblems) {
    const problems::Problem& problem = problems::problem_by_name(problem_name);
    for (int n : {5, 20, 60}) {
      for (const auto& [vname, vocabulary] : vocabularies) {
        for (std::uint64_t seed : {1, 2}) {
          const auto instance = make_instance(problem_name, n, seed);
          const GrammarState initial = make_grammar_state(problem, instance, vocabulary, options);
          Rng rng(seed * 31 + static_cast<std::uint64_t>(n));
          for (int s = 0; s < 25; ++s) {
            const std::string text = sample_text(initial, rng);
            const problems::ParseResult r = problem.parse(text);
            ASSERT_TRUE(r.solution.has_value()) << text;
            const bool ok = problem.feasible(*instance, *r.solution);
            feasible[problem_name].first += ok;
            ++feasible[problem_name].second;
            if (problem_name != "jssp") {
              ASSERT_TRUE(ok) << problem_name << " " << vname << " n=" << n << ": '" << text << "'";
            } else {
              // Each machine list is a permutation of the jobs, one list per machine.
              ASSERT_EQ(problem.repair(*instance, *r.solution).lists.size(), r.solution->lists.size()) << text;
            }
          }
        }
      }
    }
  }
  for (const auto& [name, counts] : feasible)
    std::printf("semantic mask: %s %d / %d samples feasible before repair\n", name.c_str(), counts.first, counts.second);
}

}  // namespace
}  // namespace falcon::decoding
