#include "falcon/scoring/summary.h"

#include <array>
#include <cstdio>

#include "falcon/core/error.h"

namespace falcon::scoring {

RowTotals row_totals(const std::vector<InstanceResult>& results, double infeasible_gap) {
  RowTotals t;
  for (const auto& r : results) {
    t.instances += 1;
    t.feasible += r.feasible;
    t.feasible_raw += r.feasible_raw;
    t.repaired += r.repaired;
    t.seconds += r.seconds.total;
    t.model_seconds += r.seconds.model;
    t.mask_seconds += r.seconds.mask;
    t.repair_seconds += r.seconds.repair;
    t.samples += r.samples;
    t.samples_drawn += r.samples_drawn;
    t.samples_feasible_raw += r.samples_feasible_raw;
    if (r.consistency) t.consistency += *r.consistency, t.with_consistency += 1;
    if (!r.reference) {
      t.no_reference += 1;
      continue;
    }
    t.gap_instances += 1;
    if (r.feasible && r.gap) {
      t.gap_all += *r.gap;
      t.gap_feasible += *r.gap;
      t.feasible_with_reference += 1;
    } else {
      t.gap_all += infeasible_gap;
    }
  }
  return t;
}

namespace {

// Every sum of a RowTotals in one fixed order, for to_vector and from_vector alike.
template <class Totals>
auto sums_of(Totals& t) {
  return std::array{&t.instances,     &t.feasible,     &t.feasible_raw,         &t.repaired,
                    &t.seconds,       &t.model_seconds, &t.mask_seconds,        &t.repair_seconds,
                    &t.samples,       &t.samples_drawn, &t.samples_feasible_raw, &t.consistency,
                    &t.with_consistency, &t.no_reference, &t.gap_instances,     &t.gap_all,
                    &t.gap_feasible,  &t.feasible_with_reference};
}

}  // namespace

std::vector<double> RowTotals::to_vector() const {
  std::vector<double> v;
  for (const double* sum : sums_of(*this)) v.push_back(*sum);
  return v;
}

RowTotals RowTotals::from_vector(const std::vector<double>& v) {
  RowTotals t;
  const auto sums = sums_of(t);
  if (v.size() != sums.size())
    throw Error("RowTotals::from_vector: expected " + std::to_string(sums.size()) + " sums, got " + std::to_string(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) *sums[i] = v[i];
  return t;
}

RowSummary summarize(const std::string& row, const std::string& method, const RowTotals& t, double infeasible_gap) {
  RowSummary s;
  s.row = row;
  s.method = method;
  s.instances = static_cast<int>(t.instances);
  s.infeasible_gap = infeasible_gap;
  s.no_reference = static_cast<int>(t.no_reference);
  s.gap_instances = static_cast<int>(t.gap_instances);
  if (t.instances == 0) return s;
  const double n = t.instances;
  s.feasible = t.feasible / n;
  s.feasible_raw = t.feasible_raw / n;
  s.repaired = t.repaired / n;
  s.seconds = t.seconds / n;
  s.model_seconds = t.model_seconds / n;
  s.mask_seconds = t.mask_seconds / n;
  s.repair_seconds = t.repair_seconds / n;
  s.samples = t.samples / n;
  s.samples_drawn = t.samples_drawn / n;
  s.sample_feasible_raw = t.samples > 0 ? t.samples_feasible_raw / t.samples : 0.0;
  if (t.gap_instances > 0) s.gap_all = t.gap_all / t.gap_instances;
  if (t.feasible_with_reference > 0) s.gap_feasible = t.gap_feasible / t.feasible_with_reference;
  if (t.with_consistency > 0) s.consistency = t.consistency / t.with_consistency;
  return s;
}

RowSummary summarize(const std::string& row, const std::string& method, const std::vector<InstanceResult>& results,
                     double infeasible_gap) {
  return summarize(row, method, row_totals(results, infeasible_gap), infeasible_gap);
}

nlohmann::ordered_json to_json(const RowSummary& s) {
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr); };
  nlohmann::ordered_json j;
  j["row"] = s.row;
  j["method"] = s.method;
  j["instances"] = s.instances;
  j["feasible"] = s.feasible;
  j["feasible_raw"] = s.feasible_raw;
  j["sample_feasible_raw"] = s.sample_feasible_raw;
  j["repaired"] = s.repaired;
  j["gap_all"] = opt(s.gap_all);
  j["gap_feasible"] = opt(s.gap_feasible);
  j["gap_instances"] = s.gap_instances;
  j["no_reference"] = s.no_reference;
  j["infeasible_gap"] = s.infeasible_gap;
  j["seconds"] = s.seconds;
  j["model_seconds"] = s.model_seconds;
  j["mask_seconds"] = s.mask_seconds;
  j["repair_seconds"] = s.repair_seconds;
  j["samples"] = s.samples;
  j["samples_drawn"] = s.samples_drawn;
  j["consistency"] = opt(s.consistency);
  return j;
}

std::string summary_table(const std::vector<RowSummary>& rows) {
  double infeasible_gap = rows.empty() ? 1.0 : rows.front().infeasible_gap;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "| row | instances | feasible | feasible before repair | gap, all instances (infeasible = %.0f%%) | "
                "gap, feasible only | time / instance | samples (drawn) | consistency |\n"
                "|---|---|---|---|---|---|---|---|---|\n",
                100 * infeasible_gap);
  std::string out = buf;
  auto pct = [](const std::optional<double>& v) {
    char b[32];
    if (!v) return std::string("-");
    std::snprintf(b, sizeof b, "%.2f%%", 100 * *v);
    return std::string(b);
  };
  for (const auto& s : rows) {
    std::string samples = "-";
    if (s.method.rfind("solver:", 0) != 0) {
      std::snprintf(buf, sizeof buf, "%.1f (%.1f)", s.samples, s.samples_drawn);
      samples = buf;
    }
    std::string cons = "-";
    if (s.consistency) {
      std::snprintf(buf, sizeof buf, "%.3f", *s.consistency);
      cons = buf;
    }
    std::snprintf(buf, sizeof buf, "| %s | %d | %.1f%% | %.1f%% | %s | %s | %.3fs | %s | %s |\n", s.row.c_str(),
                  s.instances, 100 * s.feasible, 100 * s.feasible_raw, pct(s.gap_all).c_str(),
                  pct(s.gap_feasible).c_str(), s.seconds, samples.c_str(), cons.c_str());
    out += buf;
  }
  return out;
}

}  // namespace falcon::scoring
