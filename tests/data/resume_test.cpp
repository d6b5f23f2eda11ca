// Kills the real falcon_datagen with SIGKILL at several moments (while labelling, after a
// consolidation, while writing OUTPUT.tmp), restarts it each time, and checks that the file on
// disk always opens and verifies and that the final file equals an uninterrupted run.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <thread>

#include "falcon/data/datagen.h"
#include "falcon/data/reader.h"
#include "tests/data/test_util.h"

namespace falcon::data {
namespace {

using Clock = std::chrono::steady_clock;

#ifdef FALCON_DATAGEN_BIN

pid_t spawn(const std::string& config) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(FALCON_DATAGEN_BIN, FALCON_DATAGEN_BIN, config.c_str(), "--quiet", static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

long journal_entries(const std::string& path) {
  std::ifstream in(path);
  long lines = 0;
  std::string line;
  while (std::getline(in, line)) ++lines;
  return std::max(0L, lines - 1);  // minus the header
}

// Runs the program until `kill_now` says so (then SIGKILL) or until it exits by itself.
// Returns true when it was killed mid-run.
bool run_until(const std::string& config, const std::function<bool(Clock::duration)>& kill_now) {
  const pid_t pid = spawn(config);
  const auto start = Clock::now();
  int status = 0;
  for (;;) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "falcon_datagen failed on its own";
      return false;
    }
    if (kill_now(Clock::now() - start)) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return WIFSIGNALED(status);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

TEST(Resume, KilledRunsContinueAndEndEqualToAnUninterruptedRun) {
  const auto dir = testing::scratch_dir();
  const std::string out = (dir / "killed.h5").string(), ref = (dir / "ref.h5").string();
  const std::string journal = journal_path_for(out), tmp = out + ".tmp";
  // ACO labels take ~10 ms here: slow enough to kill mid-run, fast enough for a unit test.
  const std::string yaml =
      "problem: tsp\nseed: 11\noutput: " + out +
      "\nsizes: {list: [8]}\ndistributions: [uniform, gm]\nlabel: {method: aco}\nthreads: 2\ncheckpoint_every: 4\n"
      "splits:\n  train: {count: 48}\n  test: {count: 8, sizes: {buckets: {a: [7, 8], b: [9, 9]}}}\n";
  const std::string config = (dir / "tsp.yaml").string();
  std::ofstream(config) << yaml;

  DatagenOptions quiet;
  quiet.progress = false;
  run_datagen(testing::spec_from_yaml(yaml, {"output=" + ref, "threads=1"}), quiet);

  const std::vector<std::pair<std::string, std::function<bool(Clock::duration)>>> kills = {
      {"a few labels in the journal, no file yet", [&](auto) { return journal_entries(journal) >= 2; }},
      {"after a consolidation", [&](auto) { return std::filesystem::exists(out) && journal_entries(journal) >= 1; }},
      {"while OUTPUT.tmp is being written", [&](auto) { return std::filesystem::exists(tmp); }},
      {"at 5 ms", [&](auto t) { return t >= std::chrono::milliseconds(5); }},
      {"at 60 ms", [&](auto t) { return t >= std::chrono::milliseconds(60); }},
  };
  int killed = 0;
  for (const auto& [when, kill_now] : kills) {
    if (!run_until(config, kill_now)) break;  // it finished first: nothing left to interrupt
    ++killed;
    std::printf("killed %s: file %s, %ld journal entries\n", when.c_str(), std::filesystem::exists(out) ? "present" : "absent",
                journal_entries(journal));
    if (std::filesystem::exists(out)) {
      EXPECT_NO_THROW(DatasetReader::open(out, "tsp").verify()) << "file unreadable after a kill " << when;
    }
  }
  EXPECT_GE(killed, 3) << "the runs finished before the kills: the test did not interrupt anything";
  run_until(config, [](auto) { return false; });  // to the end
  EXPECT_TRUE(DatasetReader::open(out, "tsp").complete());
  EXPECT_FALSE(std::filesystem::exists(journal));
  EXPECT_FALSE(std::filesystem::exists(tmp));
  testing::expect_same_dataset(out, ref);
}

#else
TEST(Resume, KilledRunsContinueAndEndEqualToAnUninterruptedRun) { GTEST_SKIP() << "falcon_datagen is not built (FALCON_BUILD_TOOLS=OFF)"; }
#endif

}  // namespace
}  // namespace falcon::data
