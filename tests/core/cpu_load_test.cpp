#include "falcon/core/cpu_load.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

namespace falcon {
namespace {

TEST(CpuLoad, OtherBusyCoresLeaveOutThisProcessesOwnTime) {
  CpuTimes before{1000, 4000, 100};
  // 2 cores, 400 ticks of machine time (200 per core): 300 busy, 100 of them this process's.
  CpuTimes after{1300, 4400, 200};
  EXPECT_DOUBLE_EQ(other_busy_cores(before, after, 2), 1.0);
  // Only this process busy: nothing else is.
  EXPECT_DOUBLE_EQ(other_busy_cores(before, {1200, 4400, 300}, 2), 0.0);
  // No time passed, or a clock that went backwards: no load rather than a division by zero.
  EXPECT_DOUBLE_EQ(other_busy_cores(before, before, 2), 0.0);
  EXPECT_DOUBLE_EQ(other_busy_cores(after, before, 2), 0.0);
}

TEST(CpuLoad, ThreadsLeaveTheBusyCoresAndKeepOne) {
  EXPECT_EQ(threads_beside(2, 0.0), 2);
  EXPECT_EQ(threads_beside(2, 0.3), 2);
  EXPECT_EQ(threads_beside(2, 0.9), 1);
  EXPECT_EQ(threads_beside(2, 2.0), 1);
  EXPECT_EQ(threads_beside(16, 3.2), 13);
}

TEST(CpuLoad, ReadsThisMachineAndCountsItsOwnWork) {
  const auto before = read_cpu_times();
  ASSERT_TRUE(before.has_value()) << "/proc/stat or /proc/self/stat unreadable";
  EXPECT_GT(before->machine_total, before->machine_busy);
  // Spin until this process's own time shows 5 clock ticks (50 ms at the usual 100 Hz), or 10 s
  // pass on a machine too busy to give it them.
  const auto start = std::chrono::steady_clock::now();
  std::atomic<std::uint64_t> sink{0};
  auto after = read_cpu_times();
  while (after && after->self < before->self + 5 && std::chrono::steady_clock::now() - start < std::chrono::seconds(10)) {
    for (int i = 0; i < 1000000; ++i) sink += 1;
    after = read_cpu_times();
  }
  ASSERT_TRUE(after.has_value());
  EXPECT_GE(after->self, before->self + 5) << "this process's own CPU time did not show";
  EXPECT_GT(after->machine_total, before->machine_total);
}

}  // namespace
}  // namespace falcon
