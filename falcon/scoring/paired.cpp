#include "falcon/scoring/paired.h"

#include <cmath>
#include <map>

#include <fmt/format.h>

namespace falcon::scoring {
namespace {

constexpr double kTieTolerance = 1e-9;

// The gap an instance counts with, or none when it has no reference.
std::optional<double> counted_gap(const InstanceResult& r, double infeasible_gap) {
  if (!r.reference) return std::nullopt;
  return r.gap ? *r.gap : infeasible_gap;
}

}  // namespace

PairedComparison compare_rows(const std::string& row, const std::vector<InstanceResult>& row_results,
                              const std::string& against, const std::vector<InstanceResult>& against_results,
                              double infeasible_gap) {
  PairedComparison c;
  c.row = row;
  c.against = against;
  std::map<std::uint64_t, double> theirs;
  for (const auto& r : against_results)
    if (const auto gap = counted_gap(r, infeasible_gap)) theirs[r.key] = *gap;
  for (const auto& r : row_results) {
    const auto mine = counted_gap(r, infeasible_gap);
    const auto it = theirs.find(r.key);
    if (!mine || it == theirs.end()) continue;
    ++c.instances;
    c.mean_gap_row += *mine;
    c.mean_gap_against += it->second;
    if (std::abs(*mine - it->second) <= kTieTolerance) ++c.ties;
    else if (*mine < it->second) ++c.wins;
    else ++c.losses;
  }
  if (c.instances > 0) {
    c.mean_gap_row /= c.instances;
    c.mean_gap_against /= c.instances;
  }
  return c;
}

nlohmann::ordered_json to_json(const PairedComparison& c) {
  return {{"row", c.row}, {"against", c.against}, {"instances", c.instances}, {"wins", c.wins}, {"ties", c.ties},
          {"losses", c.losses}, {"mean_gap_row", c.mean_gap_row}, {"mean_gap_against", c.mean_gap_against}};
}

std::string paired_table(const std::vector<PairedComparison>& comparisons) {
  std::string out =
      "| row | against | instances | wins / ties / losses | mean gap (row) | mean gap (against) |\n"
      "|---|---|---:|---:|---:|---:|\n";
  for (const auto& c : comparisons)
    out += fmt::format("| {} | {} | {} | {} / {} / {} | {:.2f}% | {:.2f}% |\n", c.row, c.against, c.instances, c.wins,
                       c.ties, c.losses, 100 * c.mean_gap_row, 100 * c.mean_gap_against);
  return out;
}

}  // namespace falcon::scoring
