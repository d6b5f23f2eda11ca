#pragma once
// How many cores the rest of the machine keeps busy, so that a process on a shared CPU asks for no
// more threads than are free: OpenMP threads that spin on a core another process holds wait for it
// at every barrier, and two threads beside one busy process run at a fraction of one thread's speed.
#include <cstdint>
#include <optional>

namespace falcon {

// Cumulative CPU time, in clock ticks: the whole machine's busy time and this process's own.
struct CpuTimes {
  std::uint64_t machine_busy = 0;   // /proc/stat "cpu": user + nice + system + irq + softirq + steal
  std::uint64_t machine_total = 0;  // the same plus idle and iowait
  std::uint64_t self = 0;           // /proc/self/stat utime + stime
};

// Reads /proc; nullopt where it is unreadable (not Linux), and callers then keep their threads.
std::optional<CpuTimes> read_cpu_times();

// Cores kept busy by other processes between two readings: (machine busy - own) / total x cores,
// in [0, cores].
double other_busy_cores(const CpuTimes& before, const CpuTimes& after, int cores);

// Threads that leave the busy cores alone: cores - round(busy), at least 1.
int threads_beside(int cores, double other_busy);

// Watches the other processes' load over time (one reading per call).
class OtherLoad {
 public:
  OtherLoad();
  // Busy cores of other processes since the previous call (or construction); nullopt without /proc
  // or when no clock tick has passed.
  std::optional<double> busy_cores_since_last(int cores);

 private:
  std::optional<CpuTimes> last_;
};

}  // namespace falcon
