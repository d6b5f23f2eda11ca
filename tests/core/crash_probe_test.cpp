#include "falcon/core/crash_probe.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include "falcon/core/error.h"

// The sanitizer's, when the test is built with one (weak: null without).
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

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

TEST(CrashProbe, AServerReportsEachRequestAsAChildOfItsOwnEnded) {
  int counter = 0;
  ProbeServer server(
      [&](const std::string& request) {
        ++counter;
        if (request == "segv") std::raise(SIGSEGV);
        if (request == "abort") std::abort();
        if (request == "throw") throw std::runtime_error("refused");
        if (request == "exit 3") std::exit(3);
        if (request == "spin")
          for (volatile bool forever = true; forever;) {
          }
      });
  EXPECT_FALSE(server.probe("ok", 10).failed);
  EXPECT_FALSE(server.probe("throw", 10).failed);
  const ProbeOutcome killed = server.probe("segv", 10);
  EXPECT_TRUE(killed.failed);
  EXPECT_EQ(killed.how.substr(0, 10), "signal 11 ") << killed.how;
  EXPECT_EQ(server.probe("abort", 10).how.substr(0, 9), "signal 6 ");
  EXPECT_EQ(server.probe("exit 3", 10).how, "exit status 3");
  EXPECT_EQ(server.probe("spin", 0.2).how, "no end after 0.2 s");
  // The server outlives its children's ends, and a request of any bytes arrives whole.
  EXPECT_FALSE(server.probe(std::string("a\0b", 3) + std::string(100000, 'x'), 10).failed);
  EXPECT_FALSE(server.probe("ok", 10).failed);
  EXPECT_EQ(counter, 0);  // the work ran only in the server's children
}

// A fuzzer registers a death callback that writes the input as a crash file; in a probe's child
// it must not run: the child's end is reported, not recorded as this process's crash. Under a
// sanitizer only (tools/sanitize.sh), where an error the sanitizer catches calls the callback.
std::string death_marker;
void write_death_marker() {
  if (std::FILE* f = std::fopen(death_marker.c_str(), "w")) std::fclose(f);
}

TEST(CrashProbe, AChildRunsNoSanitizerDeathCallback) {
  if (__sanitizer_set_death_callback == nullptr) GTEST_SKIP() << "not built with a sanitizer";
  death_marker = ::testing::TempDir() + "crash_probe_death_marker";
  std::remove(death_marker.c_str());
  __sanitizer_set_death_callback(write_death_marker);
  const ProbeOutcome overflow = probe_in_child([] {
    auto* bytes = new char[4];
    static_cast<volatile char*>(bytes)[4] = 1;  // one past the end: the sanitizer stops the child
    delete[] bytes;
  }, 10);
  __sanitizer_set_death_callback(nullptr);
  EXPECT_TRUE(overflow.failed) << overflow.how;
  std::FILE* marker = std::fopen(death_marker.c_str(), "r");
  EXPECT_EQ(marker, nullptr) << "the death callback ran in the child";
  if (marker != nullptr) std::fclose(marker);
  std::remove(death_marker.c_str());
}

#ifdef __linux__
// The harness of the test below, in a forked process of its own: it adopts its orphans (a child
// subreaper), forks a prober whose probe's child reports its pid and sleeps with a minute to run,
// kills the prober, then waits up to 10 s for the orphaned child. Its exit status: 0 when the
// child was gone with the prober, 1 when it lived on (then killed here), 2 when the setup failed.
[[noreturn]] void orphan_harness() {
  int pids[2];
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0 || ::pipe(pids) != 0) ::_exit(2);
  const pid_t prober = ::fork();
  if (prober == 0) {
    (void)probe_in_child([&] {
      const pid_t self = ::getpid();
      if (::write(pids[1], &self, sizeof self) != sizeof self) return;
      for (;;) ::pause();
    }, 60);
    ::_exit(0);
  }
  pid_t child = 0;
  if (prober < 0 || ::read(pids[0], &child, sizeof child) != sizeof child) ::_exit(2);
  ::kill(prober, SIGKILL);
  ::waitpid(prober, nullptr, 0);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < give_up) {
    if (::waitpid(child, nullptr, WNOHANG) == child) ::_exit(0);  // adopted here and reaped: gone
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ::_exit(1);
}

TEST(CrashProbe, AChildDoesNotOutliveAProberThatIsKilled) {
  // A fuzzer stopped with Ctrl-C while its probe's child spun in HDF5 left that child running
  // for good, holding a core.
  std::fflush(nullptr);
  const pid_t harness = ::fork();
  if (harness == 0) orphan_harness();
  ASSERT_GT(harness, 0);
  int status = 0;
  ASSERT_EQ(::waitpid(harness, &status, 0), harness);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: the probe's child outlived its killed parent; 2: the harness failed to start";
}
#endif

TEST(CrashProbe, AServerThatIsGoneIsAnErrorNotASignal) {
  // The work kills its parent, the server itself: this probe, and any after it, is an error.
  ProbeServer server([](const std::string&) { ::kill(::getppid(), SIGKILL); });
  EXPECT_THROW(server.probe("end my server", 10), Error);
  EXPECT_THROW(server.probe("again", 10), Error);  // a write to the closed pipe raises no SIGPIPE
}

}  // namespace
}  // namespace falcon
