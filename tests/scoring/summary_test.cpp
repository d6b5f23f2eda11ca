#include "falcon/scoring/summary.h"

#include <gtest/gtest.h>

#include "falcon/core/error.h"

namespace falcon::scoring {
namespace {

InstanceResult result(bool feasible, std::optional<double> gap, std::optional<double> reference, int samples) {
  InstanceResult r;
  r.feasible = feasible;
  r.feasible_raw = false;
  r.gap = gap;
  r.reference = reference;
  r.samples = samples;
  r.samples_drawn = samples + 1;
  r.seconds.total = 2.0;
  return r;
}

TEST(Summary, GapOverAllInstancesCountsInfeasibleOnesAndKeepsNegativeGaps) {
  // Gaps 0.10 and -0.02 (better than the reference: not clipped), one infeasible instance, one
  // instance without a reference (left out of both gaps).
  const std::vector<InstanceResult> rs = {result(true, 0.10, 10.0, 8), result(true, -0.02, 10.0, 16),
                                          result(false, std::nullopt, 10.0, 64), result(true, std::nullopt, std::nullopt, 8)};
  const auto s = summarize("adaptive", "adaptive", rs, /*infeasible_gap=*/1.0);
  EXPECT_EQ(s.instances, 4);
  EXPECT_DOUBLE_EQ(s.feasible, 0.75);
  EXPECT_EQ(s.gap_instances, 3);
  EXPECT_EQ(s.no_reference, 1);
  EXPECT_DOUBLE_EQ(*s.gap_all, (0.10 - 0.02 + 1.0) / 3);
  EXPECT_DOUBLE_EQ(*s.gap_feasible, (0.10 - 0.02) / 2);
  EXPECT_DOUBLE_EQ(s.samples, (8 + 16 + 64 + 8) / 4.0);
  EXPECT_DOUBLE_EQ(s.samples_drawn, s.samples + 1);
  EXPECT_DOUBLE_EQ(s.seconds, 2.0);
  EXPECT_FALSE(s.consistency.has_value());

  const auto half = summarize("x", "adaptive", rs, /*infeasible_gap=*/0.5);
  EXPECT_DOUBLE_EQ(*half.gap_all, (0.10 - 0.02 + 0.5) / 3);
}

TEST(Summary, NoReferenceMeansNoGapAndTheTableSaysSo) {
  const auto s = summarize("solver:nn", "solver:nearest_neighbor", {result(true, std::nullopt, std::nullopt, 0)}, 1.0);
  EXPECT_FALSE(s.gap_all.has_value());
  EXPECT_FALSE(s.gap_feasible.has_value());
  const auto table = summary_table({s});
  EXPECT_NE(table.find("gap, all instances (infeasible = 100%)"), std::string::npos) << table;
  EXPECT_NE(table.find("| solver:nn | 1 | 100.0% | 0.0% | - | - |"), std::string::npos) << table;
}

// Processes holding slices of one row (the trainer's data-parallel evaluation) add their sums and
// then summarize: the same summary as one process holding the whole row, through the vector an
// all-reduce carries.
TEST(Summary, SumsOfSlicesSummarizeLikeTheWholeRow) {
  std::vector<InstanceResult> rs = {result(true, 0.10, 10.0, 8), result(true, -0.02, 10.0, 16),
                                    result(false, std::nullopt, 10.0, 64), result(true, std::nullopt, std::nullopt, 8)};
  rs[0].samples_feasible_raw = 3;
  rs[1].consistency = 0.5;
  rs[1].repaired = true;
  const std::vector<InstanceResult> first(rs.begin(), rs.begin() + 1), rest(rs.begin() + 1, rs.end());
  auto a = row_totals(first, 1.0).to_vector();
  const auto b = row_totals(rest, 1.0).to_vector();
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  const auto sliced = summarize("r", "fixed", RowTotals::from_vector(a), 1.0);
  const auto whole = summarize("r", "fixed", rs, 1.0);
  EXPECT_EQ(to_json(sliced).dump(), to_json(whole).dump());
  EXPECT_DOUBLE_EQ(sliced.sample_feasible_raw, 3.0 / (8 + 16 + 64 + 8));
  EXPECT_THROW(RowTotals::from_vector({1.0, 2.0}), Error);
}

}  // namespace
}  // namespace falcon::scoring
