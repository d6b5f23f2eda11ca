// Data-parallel falcon_train, as real processes: the same tiny recipe run as 1 process and as 2
// (--nproc 2, Gloo on loopback) must end with the same weights, since each rank's loss is its
// exact part of the global batch's loss (global token / group counts) and gradients are summed.
// Also: rank 0 alone writes the outputs, a 2-process run stopped and resumed ends bit-identical
// to an uninterrupted 2-process run, and a run of 1 or 2 processes stopped by a signal checkpoints
// after the step in progress and resumes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "falcon/model/safetensors.h"
#include "tests/distributed/gloo_skip.h"

namespace falcon::train {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

#ifdef FALCON_TRAIN_BIN

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<json> read_jsonl(const fs::path& path) {
  std::vector<json> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  return lines;
}

double max_abs_diff(const model::TensorMap& a, const model::TensorMap& b) {
  EXPECT_EQ(a.size(), b.size());
  double diff = 0.0;
  for (const auto& [name, t] : a) {
    if (!b.count(name)) {
      ADD_FAILURE() << name << " missing";
      continue;
    }
    diff = std::max(diff, (t.to(torch::kDouble) - b.at(name).to(torch::kDouble)).abs().max().item<double>());
  }
  return diff;
}

bool bit_identical(const model::TensorMap& a, const model::TensorMap& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [name, t] : a)
    if (!b.count(name) || !torch::equal(t, b.at(name))) return false;
  return true;
}

class DataParallelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("falcon_dp_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  // A tiny TSP recipe; every run of a test shares its dataset file, and `tokenizer` (when given)
  // is the one the first run trained, so the runs differ only in their process count.
  fs::path write_recipe(const std::string& run, const std::string& stages, const std::string& tokenizer = "") const {
    std::string text = "output_dir: " + (dir_ / run).string() + R"(
seed: 5
model: {preset: tiny, hidden_size: 32, intermediate_size: 64}
tokenizer: {vocab_size: 400)" + (tokenizer.empty() ? "" : ", path: " + tokenizer) + R"(}
data:
  config: )" + std::string(FALCON_SOURCE_DIR) + R"(/configs/data/tsp.yaml
  overrides: [output=)" + (dir_ / "tsp.h5").string() + R"(, splits.train.count=24, splits.val.count=2, splits.test.count=5, "sizes={range: [6, 8]}"]
logging: {every: 1}
checkpoint: {keep_last: 4}
)" + stages;
    const fs::path path = dir_ / (run + ".yaml");
    std::ofstream(path) << text;
    return path;
  }

  // falcon_train under coreutils' timeout (a hang fails instead of blocking CI); returns seconds.
  double train(const fs::path& recipe, const std::string& flags) {
    const fs::path err = dir_ / "stderr.txt";
    const std::string command = "timeout -k 5 240 " + std::string(FALCON_TRAIN_BIN) + " " + recipe.string() +
                                " --quiet --tokenizer-tool " + FALCON_TOKENIZER_BIN + " " + flags + " > /dev/null 2> " +
                                err.string();
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system(command.c_str());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command << "\n" << read_text(err);
    std::printf("[ figures  ] %s %s: %.1f s\n", recipe.filename().c_str(), flags.c_str(), seconds);
    return seconds;
  }

  model::TensorMap final_weights(const std::string& run) const {
    return model::read_safetensors((dir_ / run / "final" / "model.safetensors").string());
  }

  // The logged global figures of two runs agree: counts exactly, losses to rounding.
  void expect_same_metrics(const std::string& a, const std::string& b) const {
    const auto la = read_jsonl(dir_ / a / "metrics.jsonl"), lb = read_jsonl(dir_ / b / "metrics.jsonl");
    ASSERT_EQ(la.size(), lb.size()) << "rank 0 alone writes one line per step and evaluation";
    for (std::size_t i = 0; i < la.size(); ++i) {
      if (la[i].contains("eval")) {
        const auto &ea = la[i]["eval"], &eb = lb[i]["eval"];
        EXPECT_EQ(ea["instances"], eb["instances"]);
        for (const char* key : {"sample_feasible_raw", "feasible", "mean_gap", "repaired"})
          EXPECT_NEAR(ea[key].get<double>(), eb[key].get<double>(), 1e-9) << "line " << i << " eval " << key;
        continue;
      }
      EXPECT_EQ(la[i]["global_step"], lb[i]["global_step"]);
      EXPECT_NEAR(la[i]["loss"].get<double>(), lb[i]["loss"].get<double>(), 1e-5) << "line " << i;
      for (const char* key : {"groups", "skipped_groups", "pairs", "anchored_on_label"})
        if (la[i].contains(key)) EXPECT_EQ(la[i][key], lb[i][key]) << "line " << i << " " << key;
      if (la[i].contains("mean_reward"))
        EXPECT_NEAR(la[i]["mean_reward"].get<double>(), lb[i]["mean_reward"].get<double>(), 1e-9);
    }
  }

  // falcon_train started in the background and sent `signal` once it has logged 20 steps (from
  // then on it is inside a step); its exit code, its stderr in *err_text.
  int stopped_by_signal(const fs::path& recipe, const std::string& flags, const std::string& signal,
                        std::string* err_text) const {
    const fs::path metrics = dir_ / recipe.stem() / "metrics.jsonl", err = dir_ / (recipe.stem().string() + ".err");
    const std::string script =
        std::string(FALCON_TRAIN_BIN) + " " + recipe.string() + " --quiet --tokenizer-tool " + FALCON_TOKENIZER_BIN +
        " " + flags + " > /dev/null 2> " + err.string() + " & pid=$!; n=0; while [ \"$(wc -l < " + metrics.string() +
        " 2> /dev/null || echo 0)\" -lt 20 ] && [ $n -lt 2400 ]; do sleep 0.05; n=$((n + 1)); done; kill -" + signal +
        " $pid; wait $pid; echo $?";
    FILE* shell = ::popen(("sh -c '" + script + "'").c_str(), "r");
    char buf[64] = {};
    const bool read = std::fgets(buf, sizeof buf, shell) != nullptr;
    ::pclose(shell);
    *err_text = read_text(err);
    return read ? std::atoi(buf) : -1;
  }

  // After a stop: the checkpoint is at the last logged step (the step in progress was finished,
  // not lost) and the run has not ended.
  void expect_checkpoint_at_the_last_logged_step(const std::string& run, const std::string& err_text) const {
    const auto logged = read_jsonl(dir_ / run / "metrics.jsonl");
    ASSERT_GE(logged.size(), 20u);
    ASSERT_LT(logged.size(), 400u) << "the run ended before the signal: make it longer";
    const auto last_step = logged.back()["global_step"].get<int>();
    EXPECT_TRUE(fs::exists(dir_ / run / "checkpoints" / ("step_" + std::to_string(last_step)))) << err_text;
    EXPECT_FALSE(fs::exists(dir_ / run / "final"));
  }

  const std::string long_sft_ = R"(threads: 1
stages:
  - {type: sft, steps: 400, batch_size: 2, lr: 0.003}
eval: {instances: 0}
)";

  fs::path dir_;
};

// SFT with slices of unequal size (5 rows over 2 ranks) and gradient accumulation: the 2-process
// run starts from nothing (rank 0 makes the data and tokenizer while rank 1 waits).
TEST_F(DataParallelTest, SftOnTwoProcessesMatchesOneProcess) {
  FALCON_SKIP_WITHOUT_GLOO();
  const std::string stages = R"(stages:
  - {type: sft, steps: 4, batch_size: 5, grad_accum: 2, lr: 0.003}
eval: {instances: 5, samples: 2}
)";
  train(write_recipe("two", stages), "--nproc 2");
  ASSERT_TRUE(fs::exists(dir_ / "two" / "tokenizer.model"));
  train(write_recipe("one", stages, (dir_ / "two" / "tokenizer.model").string()), "");
  const double diff = max_abs_diff(final_weights("one"), final_weights("two"));
  std::printf("[ figures  ] SFT, 1 vs 2 processes: max abs weight diff %.3g\n", diff);
  EXPECT_LE(diff, 1e-5);
  expect_same_metrics("one", "two");
  EXPECT_TRUE(fs::exists(dir_ / "two" / "summary.json"));
  EXPECT_TRUE(fs::exists(dir_ / "two" / "checkpoints" / "step_4"));
}

// SFT then BOPO on LoRA (3 instances per step over 2 ranks, grammar-masked samples with repair):
// the same pairs, the same weights; then a 2-process run stopped mid-BOPO and resumed with 2
// processes ends bit-identical to the uninterrupted 2-process run.
TEST_F(DataParallelTest, BopoOnTwoProcessesMatchesOneProcessAndResumesBitIdentically) {
  FALCON_SKIP_WITHOUT_GLOO();
  const std::string stages = R"(stages:
  - {type: sft, steps: 3, batch_size: 4, lr: 0.003}
  - {type: bopo, steps: 3, batch_size: 3, lr: 0.002, lora: {rank: 2}, rollout: {samples_per_instance: 3, repair: true}}
eval: {instances: 0}
)";
  train(write_recipe("two", stages), "--nproc 2");
  const std::string tokenizer = (dir_ / "two" / "tokenizer.model").string();
  train(write_recipe("one", stages, tokenizer), "");
  const double diff = max_abs_diff(final_weights("one"), final_weights("two"));
  std::printf("[ figures  ] SFT + BOPO, 1 vs 2 processes: max abs weight diff %.3g\n", diff);
  EXPECT_LE(diff, 1e-5);
  expect_same_metrics("one", "two");
  int pairs = 0;
  for (const auto& line : read_jsonl(dir_ / "two" / "metrics.jsonl")) pairs += line.value("pairs", 0);
  EXPECT_GT(pairs, 0) << "BOPO made no pairs: the comparison tested SFT only";

  const auto resumed = write_recipe("resumed", stages, tokenizer);
  train(resumed, "--nproc 2 --stop-after-steps 4");  // SFT done, one BOPO step
  train(resumed, "--nproc 2 --resume");
  EXPECT_TRUE(bit_identical(final_weights("two"), final_weights("resumed")))
      << "max abs diff " << max_abs_diff(final_weights("two"), final_weights("resumed"));
}

// `kill` mid-run: falcon_train finishes the step, writes a checkpoint, names it and exits as a
// SIGTERM'd process does (143); --resume from there ends with the weights of an uninterrupted run.
TEST_F(DataParallelTest, ASigtermCheckpointsAfterTheStepAndTheRunResumesToTheSameWeights) {
  train(write_recipe("once", long_sft_), "");
  const auto recipe = write_recipe("stopped", long_sft_, (dir_ / "once" / "tokenizer.model").string());
  std::string err;
  EXPECT_EQ(stopped_by_signal(recipe, "", "TERM", &err), 143) << err;
  EXPECT_NE(err.find("stopped by SIGTERM after a step; checkpoint "), std::string::npos) << err;
  EXPECT_NE(err.find("--resume continues from it"), std::string::npos) << err;
  expect_checkpoint_at_the_last_logged_step("stopped", err);
  train(recipe, "--resume");
  EXPECT_TRUE(bit_identical(final_weights("once"), final_weights("stopped")))
      << "max abs diff " << max_abs_diff(final_weights("once"), final_weights("stopped"));
}

// Ctrl-C to a 2-process run (SIGINT to the launcher: the workers have their own process group):
// the launcher passes it on once, both ranks stop after the same step, rank 0 checkpoints, and
// --resume ends bit-identical to an uninterrupted 2-process run.
TEST_F(DataParallelTest, ACtrlCToTwoProcessesStopsBothAfterTheSameStepAndResumes) {
  FALCON_SKIP_WITHOUT_GLOO();
  train(write_recipe("once", long_sft_), "--nproc 2");
  const auto recipe = write_recipe("stopped", long_sft_, (dir_ / "once" / "tokenizer.model").string());
  std::string err;
  EXPECT_EQ(stopped_by_signal(recipe, "--nproc 2", "INT", &err), 130) << err;
  EXPECT_NE(err.find("stopped by SIGINT after a step; checkpoint "), std::string::npos) << err;
  EXPECT_NE(err.find("--nproc 2: stopped by SIGINT, passed to every worker"), std::string::npos) << err;
  expect_checkpoint_at_the_last_logged_step("stopped", err);
  train(recipe, "--nproc 2 --resume");
  EXPECT_TRUE(bit_identical(final_weights("once"), final_weights("stopped")))
      << "max abs diff " << max_abs_diff(final_weights("once"), final_weights("stopped"));
}

#else
TEST(DataParallelTest, NeedsFalconTrain) { GTEST_SKIP() << "built without falcon_train / falcon_tokenizer"; }
#endif

}  // namespace
}  // namespace falcon::train
