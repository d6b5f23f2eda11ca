#include "falcon/scoring/solution_picture.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "falcon/core/atomic_file.h"
#include "falcon/core/error.h"
#include "falcon/problems/registry.h"
#include "falcon/scoring/solution_svg.h"
#include "falcon/scoring/svg_to_png.h"

namespace falcon::scoring {
namespace {

namespace fs = std::filesystem;

class SolutionPictureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("falcon_picture_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The one-line message check_picture_file throws, or "" when it accepts the file.
  static std::string check_error(const std::string& file) {
    try {
      check_picture_file(file, "--plot");
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(SolutionPictureTest, AcceptsSvgAndRejectsOtherExtensionsNamingTheFlag) {
  EXPECT_EQ(check_error((dir_ / "new" / "a.svg").string()), "");
  EXPECT_TRUE(fs::is_directory(dir_ / "new"));  // made before the run, where the picture goes
  for (const std::string name : {"a.jpg", "a", "a.SVG.txt"}) {
    const std::string error = check_error((dir_ / name).string());
    EXPECT_NE(error.find("--plot: "), std::string::npos) << name;
    EXPECT_NE(error.find("must end in .svg or .png"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

TEST_F(SolutionPictureTest, RejectsAPathThatCannotBeWritten) {
  const auto file = dir_ / "plain_file";
  std::ofstream(file) << "x";
  const std::string error = check_error((file / "a.svg").string());  // a directory under a file
  EXPECT_NE(error.find("--plot: cannot write"), std::string::npos) << error;
  EXPECT_NE(error.find("not a writable directory"), std::string::npos) << error;
  fs::create_directories(dir_ / "d.svg");
  EXPECT_NE(check_error((dir_ / "d.svg").string()).find("is a directory"), std::string::npos);
}

// Without rsvg-convert on PATH a .png is refused before any work, naming the package.
TEST_F(SolutionPictureTest, PngWithoutConverterNamesThePackage) {
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", dir_.c_str(), 1);
  const std::string error = check_error((dir_ / "a.png").string());
  ::setenv("PATH", path.c_str(), 1);
  EXPECT_NE(error.find("--plot: "), std::string::npos) << error;
  EXPECT_NE(error.find("librsvg2-bin"), std::string::npos) << error;
}

std::string solution_svg() {
  const auto& tsp = problems::problem_by_name("tsp");
  problems::GenerateOptions options;
  options.n = 10;
  const auto inst = tsp.generate(options, 1);
  const auto raw = problems::Solution::flat({0, 1, 2, 2, 5});
  return render_solution_svg(tsp, *inst, tsp.repair(*inst, raw), "repaired tour", &raw);
}

TEST_F(SolutionPictureTest, PngIsARealPng) {
  if (!png_converter_available()) GTEST_SKIP() << "rsvg-convert is not installed (tools/setup.sh)";
  const std::string file = (dir_ / "tour.png").string();
  EXPECT_EQ(check_error(file), "");
  write_picture(file, solution_svg());
  const std::string bytes = read_file(file);
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_FALSE(fs::exists(file + ".svg"));  // the intermediate SVG is gone
  EXPECT_FALSE(fs::exists(file + ".part"));
}

TEST_F(SolutionPictureTest, FailedConversionKeepsTheSvgAndSaysSo) {
  if (!png_converter_available()) GTEST_SKIP() << "rsvg-convert is not installed (tools/setup.sh)";
  const std::string file = (dir_ / "broken.png").string();
  try {
    write_picture(file, "<svg this is not XML");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the SVG is in " + file + ".svg"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::exists(file + ".svg"));
  EXPECT_FALSE(fs::exists(file));
}

// A name a shell would read as commands is only ever a name.
TEST_F(SolutionPictureTest, OddFileNamesAreNeverParsedByAShell) {
  if (!png_converter_available()) GTEST_SKIP() << "rsvg-convert is not installed (tools/setup.sh)";
  const std::string file = (dir_ / "-it's $(touch pwned); a.png").string();
  write_picture(file, solution_svg());
  EXPECT_TRUE(fs::exists(file));
  EXPECT_FALSE(fs::exists("pwned"));
  EXPECT_FALSE(fs::exists(dir_ / "pwned"));
}

TEST_F(SolutionPictureTest, EvalPictureMarksWhatRepairChanged) {
  const auto& tsp = problems::problem_by_name("tsp");
  problems::GenerateOptions options;
  options.n = 8;
  EvalInstance e;
  e.problem = &tsp;
  e.instance = tsp.generate(options, 2);
  e.name = e.instance->name;
  InstanceResult r;
  r.instance = e.name;
  r.row = "greedy";
  r.repaired = true;
  r.before_repair = problems::Solution::flat({0, 1, 1});
  r.solution = tsp.format(*e.instance, tsp.repair(*e.instance, *r.before_repair));
  const std::string file = (dir_ / "eval.svg").string();
  write_solution_picture(file, e, r);
  const std::string svg = read_file(file);
  EXPECT_NE(svg.find("class=\"repair-added\""), std::string::npos);
  EXPECT_NE(svg.find("| repaired"), std::string::npos);
}

}  // namespace
}  // namespace falcon::scoring
