#include "falcon/scoring/paired.h"

#include <gtest/gtest.h>

namespace falcon::scoring {
namespace {

InstanceResult at(std::uint64_t key, std::optional<double> gap, std::optional<double> reference = 10.0) {
  InstanceResult r;
  r.key = key;
  r.feasible = gap.has_value();
  r.gap = gap;
  r.reference = reference;
  return r;
}

TEST(Paired, CountsWinsTiesAndLossesInstanceByInstance) {
  // Key 1: a win; 2: a tie; 3: a loss; 4: row infeasible (counts 1.0) against 0.5, a loss;
  // 5: no reference, left out; 6: only in the row, left out.
  const std::vector<InstanceResult> row = {at(1, 0.01), at(2, 0.05), at(3, 0.09), at(4, std::nullopt),
                                           at(5, 0.0, std::nullopt), at(6, 0.0)};
  const std::vector<InstanceResult> against = {at(3, 0.04), at(2, 0.05), at(1, 0.02), at(4, 0.5),
                                               at(5, 0.3, std::nullopt)};
  const auto c = compare_rows("falcon", row, "repair", against, /*infeasible_gap=*/1.0);
  EXPECT_EQ(c.instances, 4);
  EXPECT_EQ(c.wins, 1);
  EXPECT_EQ(c.ties, 1);
  EXPECT_EQ(c.losses, 2);
  EXPECT_DOUBLE_EQ(c.mean_gap_row, (0.01 + 0.05 + 0.09 + 1.0) / 4);
  EXPECT_DOUBLE_EQ(c.mean_gap_against, (0.02 + 0.05 + 0.04 + 0.5) / 4);
  EXPECT_EQ(to_json(c)["losses"], 2);
  EXPECT_NE(paired_table({c}).find("| falcon | repair | 4 | 1 / 1 / 2 | 28.75% | 15.25% |"), std::string::npos)
      << paired_table({c});
}

TEST(Paired, BothInfeasibleIsATieAtTheInfeasibleGap) {
  const auto c = compare_rows("a", {at(1, std::nullopt)}, "b", {at(1, std::nullopt)}, 1.0);
  EXPECT_EQ(c.ties, 1);
  EXPECT_DOUBLE_EQ(c.mean_gap_row, 1.0);
}

}  // namespace
}  // namespace falcon::scoring
