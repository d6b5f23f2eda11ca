// tools/plot_training.py on a metrics.jsonl of the trainer's format: a PNG, and one clear error
// for a missing or malformed file.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;

#ifdef FALCON_SOURCE_DIR

struct ScriptRun {
  int exit_code = -1;
  std::string err;
};

class PlotTraining : public ::testing::Test {
 protected:
  void SetUp() override {
    // The script's own interpreter (its #! line): Debian's, where python3-matplotlib installs.
    if (std::system("/usr/bin/python3 -c 'import matplotlib' 2> /dev/null") != 0)
      GTEST_SKIP() << "python3-matplotlib is not installed (tools/setup.sh installs it)";
    dir_ = fs::temp_directory_path() / ("falcon_plot_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  ScriptRun plot(const std::string& args) const {
    const std::string command = std::string(FALCON_SOURCE_DIR) + "/tools/plot_training.py " + args +
                                " > /dev/null 2> " + (dir_ / "err.txt").string();
    const int status = std::system(command.c_str());
    std::ifstream in(dir_ / "err.txt");
    std::stringstream s;
    s << in.rdbuf();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, s.str()};
  }

  fs::path dir_;
};

TEST_F(PlotTraining, WritesAPngOfTheStepLines) {
  {
    std::ofstream out(dir_ / "metrics.jsonl");
    for (int i = 1; i <= 5; ++i)
      out << R"({"stage": "sft", "type": "sft", "step": )" << i << R"(, "global_step": )" << i << R"(, "loss": )"
          << 3.0 / i << R"(, "lr": 0.001, "grad_norm": 1.0, "tokens_per_second": 3000, "time": 1})" << "\n";
    out << R"({"stage": "sft", "eval": {"instances": 4, "feasible": 1.0}, "time": 2})" << "\n";
    for (int i = 1; i <= 3; ++i)
      out << R"({"stage": "grpo", "type": "grpo", "step": )" << i << R"(, "global_step": )" << 5 + i
          << R"(, "loss": 0.1, "lr": 1e-05, "grad_norm": 1.0, "tokens_per_second": 500, "groups": 3, )"
          << R"("skipped_groups": 0, "pairs": 0, "anchored_on_label": 0, "mean_reward": -0.5, "time": 3})" << "\n";
  }
  const auto run = plot(dir_.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::ifstream png(dir_ / "training.png", std::ios::binary);
  char magic[8] = {};
  png.read(magic, 8);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
}

// The PNG's height in pixels (IHDR, bytes 20-23, big-endian).
std::uint32_t png_height(const fs::path& path) {
  std::ifstream png(path, std::ios::binary);
  unsigned char header[24] = {};
  png.read(reinterpret_cast<char*>(header), 24);
  return (std::uint32_t{header[20]} << 24) | (std::uint32_t{header[21]} << 16) | (std::uint32_t{header[22]} << 8) |
         header[23];
}

// A run of several datasets gets a panel of each dataset's loss: the same lines with
// loss_by_dataset draw a taller picture; a loss_by_dataset that is not name: number is an error.
TEST_F(PlotTraining, ARunOfSeveralDatasetsGetsAPanelOfEachOnesLoss) {
  auto write = [&](const std::string& file, bool by_dataset) {
    std::ofstream out(dir_ / file);
    for (int i = 1; i <= 4; ++i)
      out << R"({"stage": "sft", "type": "sft", "step": )" << i << R"(, "global_step": )" << i
          << R"(, "loss": 1.0, "lr": 0.001, "tokens_per_second": 3000)"
          << (by_dataset ? (i % 2 ? R"(, "loss_by_dataset": {"tsp20": 1.0})" : R"(, "loss_by_dataset": {"mis50": 2.0, "tsp20": 0.9})") : "")
          << "}\n";
  };
  write("plain.jsonl", false);
  write("mixed.jsonl", true);
  ASSERT_EQ(plot((dir_ / "plain.jsonl").string() + " -o " + (dir_ / "plain.png").string()).exit_code, 0);
  const auto run = plot((dir_ / "mixed.jsonl").string() + " -o " + (dir_ / "mixed.png").string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_GT(png_height(dir_ / "mixed.png"), png_height(dir_ / "plain.png"));

  std::ofstream(dir_ / "bad_by_dataset.jsonl")
      << R"({"stage": "sft", "global_step": 1, "loss": 2.0, "loss_by_dataset": {"tsp20": "low"}})" << "\n";
  const auto bad = plot((dir_ / "bad_by_dataset.jsonl").string());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("bad_by_dataset.jsonl:1: loss_by_dataset"), std::string::npos) << bad.err;
}

TEST_F(PlotTraining, MissingOrMalformedFilesAreOneClearError) {
  auto missing = plot((dir_ / "nothing").string());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("no such file"), std::string::npos) << missing.err;

  std::ofstream(dir_ / "bad.jsonl") << R"({"stage": "sft", "global_step": 1, "loss": 2.0})" << "\n{\"stage\": \n";
  auto bad = plot((dir_ / "bad.jsonl").string());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("bad.jsonl:2:"), std::string::npos) << bad.err;

  std::ofstream(dir_ / "foreign.jsonl") << R"({"step": 1})" << "\n";
  auto foreign = plot((dir_ / "foreign.jsonl").string());
  EXPECT_EQ(foreign.exit_code, 1);
  EXPECT_NE(foreign.err.find("missing stage, global_step, loss"), std::string::npos) << foreign.err;
}

#endif

}  // namespace
