#include "falcon/train/lr_schedule.h"

#include <algorithm>
#include <cmath>

#include "falcon/core/error.h"

namespace falcon::train {

ScheduleKind schedule_kind_from_string(const std::string& name, const std::string& where) {
  if (name == "constant") return ScheduleKind::kConstant;
  if (name == "linear") return ScheduleKind::kLinear;
  if (name == "cosine") return ScheduleKind::kCosine;
  throw Error(where + ": unknown schedule '" + name + "' (use constant, linear or cosine)");
}

std::string to_string(ScheduleKind kind) {
  switch (kind) {
    case ScheduleKind::kConstant: return "constant";
    case ScheduleKind::kLinear: return "linear";
    case ScheduleKind::kCosine: return "cosine";
  }
  return "?";
}

double LrSchedule::at(std::int64_t step) const {
  if (warmup_steps > 0 && step < warmup_steps) return peak * static_cast<double>(step + 1) / (warmup_steps + 1);
  if (kind == ScheduleKind::kConstant) return peak;
  const auto decay_steps = std::max<std::int64_t>(1, total_steps - warmup_steps - 1);
  const double progress = std::clamp(static_cast<double>(step - warmup_steps) / decay_steps, 0.0, 1.0);
  const double factor = kind == ScheduleKind::kLinear ? 1.0 - progress : 0.5 * (1.0 + std::cos(M_PI * progress));
  return peak * (min_ratio + (1.0 - min_ratio) * factor);
}

}  // namespace falcon::train
