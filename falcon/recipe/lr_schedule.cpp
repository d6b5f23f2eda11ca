#include "falcon/recipe/lr_schedule.h"

#include <algorithm>
#include <cmath>

#include "falcon/core/error.h"

namespace falcon::recipe {

ScheduleKind schedule_kind_from_string(const std::string& name, const std::string& where) {
  if (name == "constant") return ScheduleKind::kConstant;
  if (name == "linear") return ScheduleKind::kLinear;
  if (name == "cosine") return ScheduleKind::kCosine;
  if (name == "wsd") return ScheduleKind::kWsd;
  throw Error(where + ": unknown schedule '" + name + "' (use constant, linear, cosine or wsd)");
}

std::string to_string(ScheduleKind kind) {
  switch (kind) {
    case ScheduleKind::kConstant: return "constant";
    case ScheduleKind::kLinear: return "linear";
    case ScheduleKind::kCosine: return "cosine";
    case ScheduleKind::kWsd: return "wsd";
  }
  return "?";
}

double LrSchedule::at(std::int64_t step) const {
  if (warmup_steps > 0 && step < warmup_steps) return peak * static_cast<double>(step + 1) / (warmup_steps + 1);
  if (kind == ScheduleKind::kConstant) return peak;
  // The decay runs from its first step (factor 1) to the last step (factor 0).
  const auto decay_start = kind == ScheduleKind::kWsd ? std::max(warmup_steps, total_steps - decay_steps) : warmup_steps;
  if (step < decay_start) return peak;
  const auto decay_length = std::max<std::int64_t>(1, total_steps - decay_start - 1);
  const double progress = std::clamp(static_cast<double>(step - decay_start) / decay_length, 0.0, 1.0);
  const double factor = kind == ScheduleKind::kCosine ? 0.5 * (1.0 + std::cos(M_PI * progress)) : 1.0 - progress;
  return peak * (min_ratio + (1.0 - min_ratio) * factor);
}

}  // namespace falcon::recipe
