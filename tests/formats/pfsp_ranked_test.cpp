// PFSP's ranked text (compact_ranked): each note lists the jobs left, the one whose lower bound is
// lowest first, and the text reads back as the order it was written from.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "falcon/formats/text_style.h"
#include "falcon/problems/pfsp.h"
#include "tests/solvers/pfsp_test_util.h"

namespace falcon::problems::pfsp {
namespace {

using formats::make_text_style;
using formats::with_text_style;
using solvers::testing::random_pfsp_instance;

// Two machines; times job-major: {job 1 on M1, job 1 on M2, job 2 on M1, ...}.
std::shared_ptr<PfspInstance> on_two_machines(std::vector<int> times) {
  auto inst = std::make_shared<PfspInstance>();
  inst->machines = 2;
  inst->jobs = static_cast<int>(times.size()) / 2;
  inst->times = std::move(times);
  return inst;
}

TEST(PfspRanked, RankedNotesPutTheJobWithTheLowestBoundFirst) {
  // After J1 (1, 9) the machines are free at 1 and 10. Appending J2 (9, 1) would end sooner (11
  // against J3's 15), but it leaves J3's 5 + 5 to come: bound max(10 + 5 + 5, 11 + 5) = 20. J3
  // (5, 5) then J2: max(6 + 9 + 1, 15 + 1) = 16, which is J1 J3 J2's makespan.
  const auto inst = on_two_machines({1, 9, 9, 1, 5, 5});
  const Problem& ranked = with_text_style(problem(), make_text_style("compact_ranked", 0, "test"));
  EXPECT_EQ(ranked.format(*inst, Solution::flat({0, 2, 1})), "Order: [#1 (#3#2), #3 (#2), #2 ()], Objective: 16.00");
  EXPECT_EQ(ranked.format(*inst, Solution::flat({0, 1, 2})), "Order: [#1 (#3#2), #2 (#3), #3 ()], Objective: 20.00");
  // Ties: less idle time, then the smaller ID. After J3 the two equal jobs give the same bound
  // (8) and the same idle time (none).
  const auto twins = on_two_machines({2, 2, 2, 2, 1, 3});
  EXPECT_EQ(ranked_notes(*twins, Solution::flat({2, 1, 0}))[0][0], "#1#2");
  // IDs out of range and repeats place nothing: the note stays the jobs left.
  EXPECT_EQ(ranked_notes(*inst, Solution::flat({0, 7, 0, -1})), (EchoNotes{{"#3#2", "#3#2", "#3#2", "#3#2"}}));
}

TEST(PfspRanked, RankedTextsListTheJobsLeftAndParseBack) {
  const Problem& ranked = with_text_style(problem(), make_text_style("compact_ranked", 0, "test"));
  Rng rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    const auto inst = random_pfsp_instance(rng, 1, 8, 4, 100 + trial);
    std::vector<int> order(inst->jobs);
    for (int j = 0; j < inst->jobs; ++j) order[j] = j;
    rng.shuffle(order);
    const EchoNotes notes = ranked_notes(*inst, Solution::flat(order));
    ASSERT_EQ(notes.size(), 1u);
    ASSERT_EQ(notes[0].size(), order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {  // note i: the jobs after position i, 1-based
      std::vector<std::string> left;
      for (std::size_t later = i + 1; later < order.size(); ++later) left.push_back("#" + std::to_string(order[later] + 1));
      std::vector<std::string> noted;
      for (std::size_t at = notes[0][i].find('#'); at != std::string::npos; at = notes[0][i].find('#', at + 1))
        noted.push_back(notes[0][i].substr(at, notes[0][i].find('#', at + 1) - at));
      std::sort(left.begin(), left.end());
      std::sort(noted.begin(), noted.end());
      EXPECT_EQ(noted, left) << "trial " << trial << ", note " << i;
    }
    const ParseResult back = ranked.parse(ranked.format(*inst, Solution::flat(order)));
    ASSERT_TRUE(back.solution.has_value()) << back.error;
    EXPECT_EQ(*back.solution, Solution::flat(order));
  }
}

}  // namespace
}  // namespace falcon::problems::pfsp
