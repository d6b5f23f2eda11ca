#include "falcon/core/stop_signal.h"

#include <gtest/gtest.h>

#include <csignal>

namespace falcon {
namespace {

TEST(StopSignal, InsideAScopeAFirstSignalIsOnlyRecorded) {
  install_stop_signal_handlers();
  clear_stop_signal();
  {
    GracefulStopScope scope;
    std::raise(SIGTERM);
    EXPECT_EQ(stop_signal(), SIGTERM);
  }
  clear_stop_signal();
  EXPECT_EQ(stop_signal(), 0);
}

TEST(StopSignalDeathTest, OutsideAScopeTheSignalEndsTheProcessAsUsual) {
  EXPECT_EXIT(
      {
        install_stop_signal_handlers();
        std::raise(SIGINT);
      },
      ::testing::KilledBySignal(SIGINT), "");
}

TEST(StopSignalDeathTest, ASecondSignalInsideAScopeEndsTheProcessAtOnce) {
  EXPECT_EXIT(
      {
        install_stop_signal_handlers();
        clear_stop_signal();
        GracefulStopScope scope;
        std::raise(SIGTERM);
        std::raise(SIGTERM);
      },
      ::testing::KilledBySignal(SIGTERM), "stopping after the current step");
}

TEST(StopSignal, NamesTheSignals) {
  EXPECT_EQ(signal_name(SIGINT), "SIGINT");
  EXPECT_EQ(signal_name(SIGTERM), "SIGTERM");
  EXPECT_EQ(signal_name(9), "signal 9");
}

}  // namespace
}  // namespace falcon
