// PFSP's insertion text (compact_insert): anchors build exactly the order they were read from, each
// note ranks every place by the makespan it gives, and anchors a model gets wrong leave jobs for
// repair instead of building something else.
#include "falcon/problems/pfsp_insertion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"
#include "falcon/problems/registry.h"
#include "falcon/formats/text_style.h"
#include "tests/solvers/pfsp_test_util.h"

namespace falcon::problems::pfsp {
namespace {

using formats::with_text_style;
using formats::make_text_style;
using solvers::testing::random_pfsp_instance;

const Problem& insert_style() { return with_text_style(problem(), make_text_style("compact_insert", 0, "test")); }

// J1:(3,2) J2:(1,4) J3:(2,1): NEH takes J1, J2 (equal totals: the smaller ID first), then J3.
std::shared_ptr<PfspInstance> tiny() {
  auto inst = std::make_shared<PfspInstance>();
  inst->jobs = 3;
  inst->machines = 2;
  inst->times = {3, 2, 1, 4, 2, 1};
  inst->name = "tiny";
  return inst;
}

std::vector<int> shuffled_jobs(int n, Rng& rng) {
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (int i = n - 1; i > 0; --i) std::swap(order[i], order[rng.uniform_int(0, i)]);
  return order;
}

TEST(PfspInsertion, PinnedTextOfNehsOrder) {
  const auto inst = tiny();
  // [J2 J1]: 7 beats [J1 J2]: 9; then J3 after J2 or after J1 make 8, first 9.
  EXPECT_EQ(insert_style().format(*inst, Solution::flat({1, 2, 0})),
            "Order: [#0 (#2:#0#1), #0 (#3:#2#1#0), #2 ()], Objective: 8.00");
  EXPECT_EQ(insert_style().format(*inst, Solution::flat({0, 1, 2})),
            "Order: [#0 (#2:#0#1), #1 (#3:#1#2#0), #2 ()], Objective: 10.00");
  const ParseResult back = insert_style().parse(*inst, "Order: [#0 (#2:#0#1), #0 (#3:#2#1#0), #2 ()], Objective: 8.00");
  ASSERT_TRUE(back.solution);
  EXPECT_EQ(back.solution->items(), (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(insert_style().parse("Order: [#0 (), #0 (), #2 ()], Objective: 8.00").solution->items(),
            (std::vector<int>{kFirstPlace, kFirstPlace, 1}));  // without the instance: the anchors themselves
}

TEST(PfspInsertion, AnchorsBuildTheOrderTheyWereReadFrom) {
  Rng rng(3);
  for (int k = 0; k < 200; ++k) {
    const auto inst = random_pfsp_instance(rng, 1, 12, 5, 500 + k);
    const Solution order = Solution::flat(shuffled_jobs(inst->jobs, rng));
    const Solution anchors = insertion_anchors(*inst, order);
    ASSERT_EQ(anchors.items().size(), static_cast<std::size_t>(inst->jobs));
    EXPECT_EQ(anchors.items().front(), kFirstPlace);  // the first job has no other place
    EXPECT_EQ(from_insertions(*inst, anchors), order) << inst->name;
    const std::string text = insert_style().format(*inst, order);
    const ParseResult strict = insert_style().parse(*inst, text);
    ASSERT_TRUE(strict.solution) << text;
    EXPECT_EQ(*strict.solution, order) << text;
    EXPECT_EQ(*insert_style().parse(*inst, text, /*lenient=*/true).solution, order) << text;
    EXPECT_EQ(*strict.objective, static_cast<double>(makespan(*inst, order.items()))) << text;
  }
  // A model's order that is no permutation: its valid first occurrences are written, a missing
  // job's anchor places nothing, and the text reads back as that part of the order.
  const auto inst = tiny();
  const Solution broken = Solution::flat({1, 7, 1, 0});  // J3 missing, an invalid ID, J2 twice
  EXPECT_EQ(insertion_anchors(*inst, broken).items(), (std::vector<int>{kFirstPlace, kFirstPlace, 2}));
  const ParseResult back = insert_style().parse(*inst, insert_style().format(*inst, broken));
  ASSERT_TRUE(back.solution);
  EXPECT_EQ(back.solution->items(), (std::vector<int>{1, 0}));
}

TEST(PfspInsertion, NotesRankEveryPlaceByTheMakespanItGives) {
  Rng rng(5);
  const auto inst = random_pfsp_instance(rng, 9, 9, 3, 77);
  const std::vector<int> jobs = neh_job_order(*inst);
  const Solution order = Solution::flat(shuffled_jobs(inst->jobs, rng));
  const Solution anchors = insertion_anchors(*inst, order);
  const EchoNotes notes = insertion_notes(*inst, anchors);
  ASSERT_EQ(notes.size(), 1u);
  ASSERT_EQ(notes[0].size(), anchors.items().size());
  for (std::size_t step = 0; step + 1 < notes[0].size(); ++step) {
    const std::string& note = notes[0][step];
    const int next = jobs[step + 1];
    ASSERT_EQ(note.substr(0, note.find(':')), "#" + std::to_string(next + 1)) << note;
    std::vector<int> placed(anchors.items().begin(), anchors.items().begin() + step + 1);
    const std::vector<int> partial = from_insertions(*inst, Solution::flat(placed)).items();
    long long previous = -1;
    int places = 0;
    for (std::size_t at = note.find('#', 1); at != std::string::npos; at = note.find('#', at + 1), ++places) {
      std::vector<int> with = placed;
      with.push_back(std::stoi(note.substr(at + 1)) - 1);
      const long long value = makespan(*inst, from_insertions(*inst, Solution::flat(with)).items());
      EXPECT_GE(value, previous) << note;
      previous = value;
    }
    EXPECT_EQ(places, static_cast<int>(partial.size()) + 1) << note;  // every place, once
  }
  EXPECT_EQ(notes[0].back(), "");
}

TEST(PfspInsertion, WrongAnchorsLeaveJobsForRepair) {
  const auto inst = tiny();  // NEH's job order: J1, J2, J3
  // J3 after J3 (not placed yet): J3 is missing, and repair inserts it at its best place.
  const Solution unplaced = from_insertions(*inst, Solution::flat({kFirstPlace, kFirstPlace, 2}));
  EXPECT_EQ(unplaced.items(), (std::vector<int>{1, 0}));
  EXPECT_EQ(violation(*inst, unplaced), 1);
  EXPECT_EQ(insert_style().repair(*inst, unplaced).items(), (std::vector<int>{1, 2, 0}));
  // Out of range or overflowing: nothing placed.
  EXPECT_EQ(from_insertions(*inst, Solution::flat({kFirstPlace, 9, kIndexOverflow})).items(), (std::vector<int>{0}));
  // A fourth anchor: the order is whole, but the text went on, so it is not feasible as written.
  const Solution longer = from_insertions(*inst, Solution::flat({kFirstPlace, 0, 1, 0}));
  EXPECT_EQ(longer.items(), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_FALSE(feasible(*inst, longer));
  EXPECT_EQ(insert_style().repair(*inst, longer).items(), (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(from_insertions(*inst, Solution{}).items().empty());
  // Notes follow what was placed: after a wrong anchor the next job's note comes all the same.
  EXPECT_EQ(insertion_notes(*inst, Solution::flat({kFirstPlace, 7})), (EchoNotes{{"#2:#0#1", "#3:#1#0"}}));
}

TEST(PfspInsertion, OnlyPfspWritesInsertions) {
  const Problem& tsp = with_text_style(problem_by_name("tsp"), make_text_style("compact_insert", 0, "test"));
  const auto inst = tsp.generate({}, 1);
  try {
    tsp.format(*inst, Solution::flat({0, 1, 2}));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'compact_insert' is not written for tsp"), std::string::npos) << e.what();
  }
  EXPECT_EQ(insert_style().grammar_name(), "pfsp_insert");
  EXPECT_EQ(insert_style().grammar(*tiny()).first_index, 0);  // "#0": first
  EXPECT_EQ(insert_style().grammar(*tiny()).last_index, 3);
}

}  // namespace
}  // namespace falcon::problems::pfsp
