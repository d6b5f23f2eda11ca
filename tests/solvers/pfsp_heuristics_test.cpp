#include "falcon/solvers/pfsp_heuristics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

#include "falcon/core/rng.h"
#include "falcon/problems/pfsp_insertion.h"
#include "tests/solvers/pfsp_test_util.h"
#include "tests/benchmark_files.h"

namespace falcon::solvers {
namespace {

using problems::GenerateOptions;
using problems::Solution;
namespace pfsp = problems::pfsp;

using testing::brute_force_optimum;
const auto random_instance = testing::random_pfsp_instance;

TEST(PfspNeh, RegisteredAndFeasible) {
  const SolverEntry& neh = solver_by_name("pfsp", "neh");
  Rng rng(1);
  for (int k = 0; k < 30; ++k) {
    const auto inst = random_instance(rng, 1, 60, 10, 40 + k);
    const Solution s = neh.solve(*inst, SolveOptions{});
    EXPECT_TRUE(pfsp::problem().feasible(*inst, s)) << inst->name;
    EXPECT_EQ(s.items(), neh_order(*inst));
  }
}

TEST(PfspNeh, NeverBeatsAndSometimesEqualsTheBruteForceOptimum) {
  Rng rng(2);
  int optimal = 0, suboptimal = 0;
  for (int k = 0; k < 60; ++k) {
    const auto inst = random_instance(rng, 2, 7, 5, 700 + k);
    const long long opt = brute_force_optimum(*inst);
    const long long neh = pfsp::makespan(*inst, neh_order(*inst));
    ASSERT_GE(neh, opt) << inst->name;
    EXPECT_GE(opt, pfsp::lower_bound(*inst)) << inst->name;
    (neh == opt ? optimal : suboptimal) += 1;
  }
  EXPECT_GT(optimal, 0);
  EXPECT_GT(suboptimal, 0);  // a heuristic, not an exact method in disguise
}

TEST(PfspNeh, TiesKeepTheLowerIdFirstAndTheEarlierPosition) {
  // Identical jobs: the stable sort keeps 0, 1, 2, 3 and every insertion ties everywhere, so
  // each job lands at the front.
  auto inst = std::make_shared<pfsp::PfspInstance>();
  inst->jobs = 4;
  inst->machines = 3;
  inst->times.assign(12, 7);
  EXPECT_EQ(neh_order(*inst), (std::vector<int>{3, 2, 1, 0}));
}

TEST(PfspNeh, Ta001GivesTheLiteratureMakespan) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  const auto ta001 = pfsp::read_file(std::string(FALCON_BENCHMARKS_DIR) + "/pfsp/instances/ta001.txt");
  EXPECT_EQ(pfsp::makespan(*ta001, neh_order(*ta001)), 1286);  // optimum 1278
}

// The insertion text (compact_insert) is written so that always taking the note's first place is NEH.
TEST(PfspNeh, IsTheInsertionTextTakingEachNotesFirstPlace) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    GenerateOptions opt;
    opt.n = 12;
    opt.params["m"] = "4";
    const auto inst = pfsp::generate(opt, seed);
    std::vector<int> anchors{pfsp::kFirstPlace};
    for (int step = 1; step < inst->jobs; ++step) {
      const std::string note = pfsp::insertion_notes(*inst, Solution::flat(anchors))[0].back();  // "#j:#a#b..."
      anchors.push_back(std::stoi(note.substr(note.find(':') + 2)) - 1);  // the first place, 0-based ("#0": -1)
    }
    EXPECT_EQ(pfsp::insertion_notes(*inst, Solution::flat(anchors))[0].back(), "");  // every job placed
    EXPECT_EQ(pfsp::from_insertions(*inst, Solution::flat(anchors)).items(), neh_order(*inst)) << inst->name;
  }
}

}  // namespace
}  // namespace falcon::solvers
