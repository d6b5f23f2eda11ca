#include "falcon/core/cpu_load.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

namespace falcon {

std::optional<CpuTimes> read_cpu_times() {
  std::ifstream stat("/proc/stat");
  std::string label;
  // user nice system idle iowait irq softirq steal (guest time is already inside user)
  std::uint64_t f[8] = {};
  if (!(stat >> label) || label != "cpu") return std::nullopt;
  for (auto& v : f)
    if (!(stat >> v)) return std::nullopt;
  CpuTimes t;
  t.machine_busy = f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
  t.machine_total = t.machine_busy + f[3] + f[4];

  std::ifstream self_stat("/proc/self/stat");
  std::string line;
  if (!std::getline(self_stat, line)) return std::nullopt;
  // Fields after the command name, which may hold spaces and ends at the last ')': state is
  // field 3, utime and stime are fields 14 and 15.
  const auto close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(close + 1));
  std::string field;
  std::uint64_t utime = 0, stime = 0;
  for (int i = 3; i <= 15; ++i) {
    if (!(rest >> field)) return std::nullopt;
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  t.self = utime + stime;
  return t;
}

double other_busy_cores(const CpuTimes& before, const CpuTimes& after, int cores) {
  const double total = static_cast<double>(after.machine_total) - static_cast<double>(before.machine_total);
  if (total <= 0 || cores <= 0) return 0.0;
  const double busy = static_cast<double>(after.machine_busy) - static_cast<double>(before.machine_busy);
  const double own = static_cast<double>(after.self) - static_cast<double>(before.self);
  return std::clamp((busy - own) / total * cores, 0.0, static_cast<double>(cores));
}

int threads_beside(int cores, double other_busy) {
  return std::max(1, cores - static_cast<int>(std::lround(other_busy)));
}

OtherLoad::OtherLoad() : last_(read_cpu_times()) {}

std::optional<double> OtherLoad::busy_cores_since_last(int cores) {
  auto now = read_cpu_times();
  if (!now || !last_ || now->machine_total <= last_->machine_total) {
    if (now) last_ = now;
    return std::nullopt;
  }
  const double busy = other_busy_cores(*last_, *now, cores);
  last_ = now;
  return busy;
}

}  // namespace falcon
