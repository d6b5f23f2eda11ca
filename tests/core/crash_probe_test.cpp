#include "falcon/core/crash_probe.h"

#include <gtest/gtest.h>

#include <csignal>
#include <stdexcept>

namespace falcon {
namespace {

TEST(CrashProbe, ReportsHowTheChildEnded) {
  EXPECT_FALSE(probe_in_child([] {}, 10).failed);
  // An exception is the work finishing: the caller meets the same error in-process.
  EXPECT_FALSE(probe_in_child([] { throw std::runtime_error("refused"); }, 10).failed);
  const ProbeOutcome killed = probe_in_child([] { std::raise(SIGSEGV); }, 10);
  EXPECT_TRUE(killed.failed);
  EXPECT_EQ(killed.how.substr(0, 10), "signal 11 ") << killed.how;
  const ProbeOutcome aborted = probe_in_child([] { std::abort(); }, 10);
  EXPECT_TRUE(aborted.failed);
  EXPECT_EQ(aborted.how.substr(0, 9), "signal 6 ") << aborted.how;
  // This process is untouched: the work ran only in the child.
  int counter = 0;
  EXPECT_FALSE(probe_in_child([&] { ++counter; }, 10).failed);
  EXPECT_EQ(counter, 0);
  // A child that never ends is killed at the limit.
  const ProbeOutcome hung = probe_in_child([] {
    for (volatile bool forever = true; forever;) {
    }
  }, 0.2);
  EXPECT_TRUE(hung.failed);
  EXPECT_EQ(hung.how, "no end after 0.2 s");
}

}  // namespace
}  // namespace falcon
