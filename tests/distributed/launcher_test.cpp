// Real processes: the distributed_worker helper trains a small model for a few steps, once as
// one process and once as several data-parallel workers started by its own --nproc, and the
// final weights must agree. Also: a failing worker makes the launcher fail naming its rank.
#include "falcon/distributed/launcher.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/model/safetensors.h"
#include "tests/distributed/gloo_skip.h"

namespace falcon::distributed {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

fs::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const auto dir = fs::temp_directory_path() /
                   (std::string("falcon_distributed_") + info->name() + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct WorkerRun {
  int exit_code = -1;
  std::string stderr_text;
};

// The worker under coreutils' timeout, so a hang fails the test instead of blocking CI.
WorkerRun run_worker(const std::string& worker_args, const fs::path& dir) {
  const fs::path err = dir / "stderr.txt";
  const std::string command = std::string("timeout -k 5 120 ") + FALCON_DISTRIBUTED_WORKER + " " + worker_args +
                              " > /dev/null 2> " + err.string();
  const int status = std::system(command.c_str());
  WorkerRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  run.stderr_text = read_text(err);
  return run;
}

double max_abs_diff(const model::TensorMap& a, const model::TensorMap& b) {
  EXPECT_EQ(a.size(), b.size());
  double diff = 0.0;
  for (const auto& [name, t] : a) {
    const auto it = b.find(name);
    if (it == b.end()) {
      ADD_FAILURE() << "missing " << name;
      continue;
    }
    diff = std::max(diff, (t.to(torch::kFloat64) - it->second.to(torch::kFloat64)).abs().max().item<double>());
  }
  return diff;
}

bool identical(const model::TensorMap& a, const model::TensorMap& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [name, t] : a) {
    if (!b.count(name) || !torch::equal(t, b.at(name))) return false;
  }
  return true;
}

// Trains with 1 process and with `nproc` processes; returns the max weight difference.
double one_vs_many(const std::string& args, int nproc) {
  const auto dir = scratch_dir();
  const auto single = dir / "single.safetensors", multi = dir / "multi.safetensors";
  const WorkerRun one = run_worker(args + " --out " + single.string(), dir);
  EXPECT_EQ(one.exit_code, 0) << one.stderr_text;
  const WorkerRun many = run_worker(args + " --nproc " + std::to_string(nproc) + " --out " + multi.string(), dir);
  EXPECT_EQ(many.exit_code, 0) << many.stderr_text;
  if (one.exit_code != 0 || many.exit_code != 0) return 1e9;

  const auto w1 = model::read_safetensors(single.string());
  const auto wn = model::read_safetensors(multi.string());
  EXPECT_EQ(model::read_safetensors_metadata(multi.string()).at("world_size"), std::to_string(nproc));
  for (int rank = 1; rank < nproc; ++rank) {
    // Every rank applies the same averaged gradients, so the replicas stay bit-identical.
    const auto other = model::read_safetensors(multi.string() + ".rank" + std::to_string(rank));
    EXPECT_TRUE(identical(wn, other)) << "rank " << rank << " diverged from rank 0";
  }
  const double loss1 = std::stod(model::read_safetensors_metadata(single.string()).at("loss"));
  const double lossn = std::stod(model::read_safetensors_metadata(multi.string()).at("loss"));
  EXPECT_NEAR(loss1, lossn, 1e-5) << "summed losses (all_reduce_sum) disagree";
  fs::remove_all(dir);
  return max_abs_diff(w1, wn);
}

TEST(DataParallel, TwoProcessesMatchOneOnTheCombinedBatchTransformerAdamW) {
  FALCON_SKIP_WITHOUT_GLOO();
  const double diff = one_vs_many("--model lm --optimizer adamw --steps 4 --batch 4", 2);
  std::printf("CausalLm, AdamW, 4 steps, 2 ranks: max |w_1proc - w_2proc| = %.3g\n", diff);
  EXPECT_LT(diff, 1e-6);
}

TEST(DataParallel, ThreeProcessesWithUnequalShardsAndSmallBucketsMlpSgd) {
  FALCON_SKIP_WITHOUT_GLOO();
  // 8 rows over 3 ranks (2, 3, 3), one parameter only rank 0's rows reach, 256-byte buckets.
  const double diff = one_vs_many("--model mlp --optimizer sgd --steps 5 --batch 8 --bucket-bytes 256", 3);
  std::printf("MLP, SGD+momentum, 5 steps, 3 ranks: max |w_1proc - w_3proc| = %.3g\n", diff);
  EXPECT_LT(diff, 1e-6);
}

TEST(Launcher, AFailingWorkerFailsTheLaunchNamingItsRank) {
  FALCON_SKIP_WITHOUT_GLOO();
  const auto dir = scratch_dir();
  const WorkerRun run = run_worker("--nproc 2 --fail-rank 1 --out " + (dir / "w.safetensors").string(), dir);
  EXPECT_EQ(run.exit_code, 3) << run.stderr_text;
  EXPECT_THAT(run.stderr_text, HasSubstr("worker rank 1 failed (exit code 3)"));
  EXPECT_THAT(run.stderr_text, HasSubstr("[rank 1] rank 1 fails on purpose"));  // its stderr, shown on failure
  // Rank 0 fails a moment later on the broken connection, often before rank 1 has exited;
  // its marker keeps it from being blamed.
  EXPECT_THAT(run.stderr_text, ::testing::Not(HasSubstr("worker rank 0 failed")));
  fs::remove_all(dir);
}

TEST(Launcher, ResultNamesTheRankAndStopsTheOthers) {
  FALCON_SKIP_WITHOUT_GLOO();
  const auto dir = scratch_dir();
  LaunchOptions options;
  options.program = FALCON_DISTRIBUTED_WORKER;
  options.timeout = std::chrono::seconds(120);
  // Rank 0 fails at once; rank 1 would wait in the rendezvous or the first collective.
  const auto result = spawn_local_workers(
      2, {"distributed_worker", "--fail-rank", "0", "--out", (dir / "w.safetensors").string()}, options);
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.failed_rank, 0);
  EXPECT_EQ(result.exit_code, 3);
  // Exit order says little (the echo on rank 1 may exit first); the marker decides.
  EXPECT_THAT(result.failed_ranks, ::testing::Contains(0));
  EXPECT_THAT(result.message, HasSubstr("worker rank 0 failed"));
  fs::remove_all(dir);
}

TEST(Launcher, TimeoutStopsHangingWorkers) {
  LaunchOptions options;
  options.program = FALCON_DISTRIBUTED_WORKER;
  options.timeout = std::chrono::milliseconds(500);
  options.grace = std::chrono::milliseconds(200);
  const auto result = spawn_local_workers(2, {"distributed_worker", "--hang"}, options);
  EXPECT_EQ(result.exit_code, 124);
  EXPECT_EQ(result.failed_rank, -1);
  EXPECT_THAT(result.message, HasSubstr("still running"));
}

TEST(Launcher, ProgramThatCannotStartIsAFailureOfRankZero) {
  LaunchOptions options;
  options.program = "/nonexistent/falcon_program";
  const auto result = spawn_local_workers(1, {"x"}, options);
  EXPECT_EQ(result.exit_code, 127);
  EXPECT_EQ(result.failed_rank, 0);
}

TEST(Launcher, NprocFlagIsRemovedInBothSpellings) {
  EXPECT_EQ(without_nproc_flag({"prog", "--nproc", "4", "cfg.yaml", "--nproc=2", "a=b"}),
            (std::vector<std::string>{"prog", "cfg.yaml", "a=b"}));
  EXPECT_THROW(spawn_local_workers(0, {"prog"}), Error);
  EXPECT_GT(find_free_port(), 0);
}

}  // namespace
}  // namespace falcon::distributed
