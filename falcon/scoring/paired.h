#pragma once
// Instance by instance, how one row does against another on the same instances: a mean gap can
// hide that a row wins as often as it loses (FALCON against repair alone on TSP-20: 49 better,
// 50 worse, 1 tie). Rows are compared by their delivered gaps, an instance without a feasible
// solution counting as `infeasible_gap` (as in gap_all); instances without a reference, or
// missing from either row, are left out.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "falcon/scoring/instance_result.h"

namespace falcon::scoring {

struct PairedComparison {
  std::string row, against;
  int instances = 0;             // compared: in both rows, with a reference
  int wins = 0, ties = 0, losses = 0;  // row's gap below / equal to (1e-9) / above against's
  double mean_gap_row = 0, mean_gap_against = 0;  // over the compared instances
};

PairedComparison compare_rows(const std::string& row, const std::vector<InstanceResult>& row_results,
                              const std::string& against, const std::vector<InstanceResult>& against_results,
                              double infeasible_gap);

nlohmann::ordered_json to_json(const PairedComparison& c);

// Markdown table, one line per comparison: "row vs against | instances | wins / ties / losses | mean gaps".
std::string paired_table(const std::vector<PairedComparison>& comparisons);

}  // namespace falcon::scoring
