#pragma once
// Learning rate per optimizer step: linear warmup from 0, then constant, linear or cosine decay
// to min_ratio * peak at the last step (the schedules of HF's get_scheduler), or warmup-stable-
// decay (wsd): the peak until the last decay_steps steps, then linear to min_ratio * peak, so a
// run trains at full rate for most of its steps and still ends annealed.
#include <cstdint>
#include <string>

namespace falcon::recipe {

enum class ScheduleKind { kConstant, kLinear, kCosine, kWsd };
ScheduleKind schedule_kind_from_string(const std::string& name, const std::string& where);  // throws naming `where`
std::string to_string(ScheduleKind kind);

struct LrSchedule {
  double peak = 1e-3;
  std::int64_t warmup_steps = 0;
  std::int64_t total_steps = 1;
  ScheduleKind kind = ScheduleKind::kCosine;
  double min_ratio = 0.1;
  std::int64_t decay_steps = 0;  // wsd: the length of the final linear decay

  // step counts from 0; the first step already gets a non-zero rate when warming up.
  double at(std::int64_t step) const;
};

}  // namespace falcon::recipe
