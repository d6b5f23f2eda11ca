#include "falcon/eval/summary.h"

#include <cstdio>

namespace falcon::eval {

RowSummary summarize(const std::string& row, const std::string& method, const std::vector<InstanceResult>& results,
                     double infeasible_gap) {
  RowSummary s;
  s.row = row;
  s.method = method;
  s.instances = static_cast<int>(results.size());
  s.infeasible_gap = infeasible_gap;
  if (results.empty()) return s;
  double gap_all = 0, gap_feasible = 0, cons = 0;
  int feasible_with_ref = 0, with_cons = 0;
  long used = 0, used_raw = 0;
  for (const auto& r : results) {
    s.feasible += r.feasible;
    s.feasible_raw += r.feasible_raw;
    s.repaired += r.repaired;
    s.seconds += r.seconds.total;
    s.model_seconds += r.seconds.model;
    s.mask_seconds += r.seconds.mask;
    s.repair_seconds += r.seconds.repair;
    s.samples += r.samples;
    s.samples_drawn += r.samples_drawn;
    used += r.samples;
    used_raw += r.samples_feasible_raw;
    if (r.consistency) cons += *r.consistency, ++with_cons;
    if (!r.reference) {
      ++s.no_reference;
      continue;
    }
    ++s.gap_instances;
    if (r.feasible && r.gap) {
      gap_all += *r.gap;
      gap_feasible += *r.gap;
      ++feasible_with_ref;
    } else {
      gap_all += infeasible_gap;
    }
  }
  const double n = s.instances;
  s.feasible /= n;
  s.feasible_raw /= n;
  s.repaired /= n;
  s.seconds /= n;
  s.model_seconds /= n;
  s.mask_seconds /= n;
  s.repair_seconds /= n;
  s.samples /= n;
  s.samples_drawn /= n;
  s.sample_feasible_raw = used > 0 ? static_cast<double>(used_raw) / used : 0.0;
  if (s.gap_instances > 0) s.gap_all = gap_all / s.gap_instances;
  if (feasible_with_ref > 0) s.gap_feasible = gap_feasible / feasible_with_ref;
  if (with_cons > 0) s.consistency = cons / with_cons;
  return s;
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

}  // namespace falcon::eval
