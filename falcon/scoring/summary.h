#pragma once
// A row's summary over its instances, and the printed table. The definitions (docs/evaluation.md):
//   feasible:      fraction of instances whose delivered solution is feasible;
//   feasible_raw:  fraction whose delivered sample was feasible before repair;
//   gap_all:       mean gap over ALL instances with a reference f*, an instance without a feasible
//                  solution counting as `infeasible_gap` (default 1.0 = 100%). Gaps are not
//                  clipped: a solution better than the reference has a negative gap;
//   gap_feasible:  mean gap over the feasible instances with a reference only (equal to gap_all
//                  when every instance is feasible);
//   seconds, samples, samples_drawn: means per instance; consistency: mean over the instances
//   where it is defined (K >= 2).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "falcon/scoring/instance_result.h"

namespace falcon::scoring {

struct RowSummary {
  std::string row;
  std::string method;            // greedy | fixed | adaptive | solver:<name>
  int instances = 0;
  double feasible = 0;
  double feasible_raw = 0;
  double sample_feasible_raw = 0;  // fraction of all used samples feasible before repair
  double repaired = 0;           // fraction of instances whose delivered solution repair changed
  int gap_instances = 0;         // instances with a reference
  int no_reference = 0;          // instances without one (left out of both gaps)
  double infeasible_gap = 1.0;
  std::optional<double> gap_all;
  std::optional<double> gap_feasible;
  double seconds = 0, model_seconds = 0, mask_seconds = 0, repair_seconds = 0;
  double samples = 0, samples_drawn = 0;
  std::optional<double> consistency;
};

RowSummary summarize(const std::string& row, const std::string& method, const std::vector<InstanceResult>& results,
                     double infeasible_gap);

// The sums a RowSummary divides, so that processes holding slices of one row (the trainer's data
// parallel evaluation) add them up first and then summarize with the same definitions.
struct RowTotals {
  double instances = 0, feasible = 0, feasible_raw = 0, repaired = 0;
  double seconds = 0, model_seconds = 0, mask_seconds = 0, repair_seconds = 0;
  double samples = 0, samples_drawn = 0, samples_feasible_raw = 0;
  double consistency = 0, with_consistency = 0;
  double no_reference = 0, gap_instances = 0, gap_all = 0, gap_feasible = 0, feasible_with_reference = 0;

  std::vector<double> to_vector() const;                        // for an all-reduce (sum)
  static RowTotals from_vector(const std::vector<double>& sums);  // its inverse
};

RowTotals row_totals(const std::vector<InstanceResult>& results, double infeasible_gap);
RowSummary summarize(const std::string& row, const std::string& method, const RowTotals& totals,
                     double infeasible_gap);

nlohmann::ordered_json to_json(const RowSummary& s);

// Markdown table, one line per row; its header states how gaps are averaged.
std::string summary_table(const std::vector<RowSummary>& rows);

}  // namespace falcon::scoring
