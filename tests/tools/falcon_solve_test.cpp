// falcon_solve end to end: the real program, run the way a user runs it. Here: --plot (one
// picture, one per instance and method, --check's before/after, PNG) and its errors; --svg.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "falcon/core/atomic_file.h"
#include "falcon/problems/registry.h"
#include "falcon/scoring/svg_to_png.h"
#include "tests/tools/program_run.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

using falcon::testing::ProgramRun;

// `args` are shell words (the test's own, quoted where needed).
ProgramRun run_solve(const fs::path& dir, const std::string& args) {
  return falcon::testing::run_program(FALCON_SOLVE_BIN, dir, args);
}

std::vector<json> json_lines(const std::string& out) {
  std::vector<json> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  return lines;
}

class FalconSolveTest : public falcon::testing::ScratchDirTest {
 protected:
  FalconSolveTest() : ScratchDirTest("falcon_solve") {}
};

TEST_F(FalconSolveTest, PlotWritesThePictureOfTheOneSolution) {
  const auto file = dir_ / "pics" / "tour.svg";
  const auto run = run_solve(dir_, "--problem tsp --method nearest_neighbor --generate n=8 --plot " + file.string());
  ASSERT_EQ(run.code, 0) << run.err;
  const auto lines = json_lines(run.out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["picture"], file.string());
  EXPECT_EQ(falcon::read_file(file.string()).rfind("<svg", 0), 0u);
}

// Several solutions: one picture each, FILE with .<instance>.<method> before the extension.
TEST_F(FalconSolveTest, PlotWithSeveralSolutionsWritesOneFileEach) {
  const auto file = dir_ / "routes.svg";
  const auto run = run_solve(dir_, "--problem cvrp --method nearest_neighbor --generate n=8,count=3 --plot " + file.string());
  ASSERT_EQ(run.code, 0) << run.err;
  const auto lines = json_lines(run.out);
  ASSERT_EQ(lines.size(), 3u);
  for (const auto& j : lines) {
    const std::string expected = (dir_ / ("routes." + j["instance"].get<std::string>() + "." +
                                          j["method"].get<std::string>() + ".svg")).string();
    EXPECT_EQ(j["picture"], expected);
    EXPECT_TRUE(fs::exists(expected)) << expected;
  }
  EXPECT_FALSE(fs::exists(file));
}

// --check draws the repaired solution with the edges repair added highlighted.
TEST_F(FalconSolveTest, CheckPlotMarksWhatRepairChanged) {
  const auto file = dir_ / "check.svg";
  const auto run = run_solve(dir_, "--problem tsp --check 'Route: [0, 1, 1], Objective: 1.00' --generate n=6 --plot " +
                                       file.string());
  ASSERT_EQ(run.code, 0) << run.err;
  const auto lines = json_lines(run.out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(lines[0]["repaired"].get<bool>());
  const std::string svg = falcon::read_file(file.string());
  EXPECT_NE(svg.find("class=\"repair-added\""), std::string::npos);
  EXPECT_NE(svg.find("added by repair"), std::string::npos);
}

TEST_F(FalconSolveTest, PlotPngIsARealPng) {
  if (!falcon::scoring::png_converter_available()) GTEST_SKIP() << "rsvg-convert is not installed (tools/setup.sh)";
  const auto file = dir_ / "gantt.png";
  const auto run = run_solve(dir_, "--problem jssp --method spt --generate n=4,m=3 --plot " + file.string());
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(falcon::read_file(file.string()).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

// Bad --plot values fail before any solving, with one line naming the flag and the fix.
TEST_F(FalconSolveTest, BadPlotFileIsOneClearErrorBeforeSolving) {
  std::ofstream(dir_ / "plain_file") << "x";
  const std::pair<std::string, std::string> cases[] = {
      {(dir_ / "tour.jpg").string(), "must end in .svg or .png"},
      {(dir_ / "plain_file" / "tour.svg").string(), "not a writable directory"},
  };
  for (const auto& [file, message] : cases) {
    const auto run = run_solve(dir_, "--problem tsp --method nearest_neighbor --generate n=8 --plot '" + file + "'");
    EXPECT_EQ(run.code, 1) << file;
    EXPECT_EQ(run.out, "") << "solved before the error: " << file;
    EXPECT_EQ(run.err.rfind("falcon_solve: error: --plot: ", 0), 0u) << run.err;
    EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  }
}

TEST_F(FalconSolveTest, SvgDirStillWritesOnePicturePerSolution) {
  const auto run = run_solve(dir_, "--problem mis --method greedy --generate n=10,count=2 --svg " + (dir_ / "svg").string());
  ASSERT_EQ(run.code, 0) << run.err;
  const auto lines = json_lines(run.out);
  ASSERT_EQ(lines.size(), 2u) << run.out;  // one line a solution: a silent program fails here
  for (const auto& j : lines)
    EXPECT_TRUE(fs::exists(dir_ / "svg" / (j["instance"].get<std::string>() + ".greedy.svg")));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "svg"), fs::directory_iterator{}), 2);
}

// An empty answer (a model can give one) is scored and repaired like any other text, on every
// registered problem: unparsed, infeasible before repair, feasible after.
TEST_F(FalconSolveTest, EmptyCheckTextIsScoredAndRepaired) {
  for (const auto name : falcon::problems::problem_names()) {
    const std::string problem(name);
    const auto run = run_solve(dir_, "--problem " + problem + " --check '' --generate n=6");
    ASSERT_EQ(run.code, 0) << problem << ": " << run.err;
    const auto lines = json_lines(run.out);
    ASSERT_EQ(lines.size(), 1u) << problem;
    EXPECT_FALSE(lines[0]["parsed"].get<bool>()) << lines[0];
    EXPECT_FALSE(lines[0]["feasible_before"].get<bool>()) << lines[0];
    EXPECT_TRUE(lines[0]["feasible"].get<bool>()) << lines[0];
  }
}

// The compact text style: --prompt prints it, solutions are written in it, --check reads it (and
// the paper's text is then not a sentence of the grammar, so it is salvaged and repaired).
TEST_F(FalconSolveTest, CompactTextStyleForPromptSolutionsAndCheck) {
  const std::string style = " --text-style compact --candidates 2 --generate n=5";
  const auto prompt = run_solve(dir_, "--problem tsp --prompt" + style);
  ASSERT_EQ(prompt.code, 0) << prompt.err;
  EXPECT_NE(prompt.out.find("TSP:#0 "), std::string::npos) << prompt.out;
  const auto solved = json_lines(run_solve(dir_, "--problem tsp --method nearest_neighbor" + style).out);
  ASSERT_EQ(solved.size(), 1u);
  EXPECT_EQ(solved[0]["solution"].get<std::string>().rfind("Route: [#0, #", 0), 0u) << solved[0];
  const auto good = json_lines(run_solve(dir_, "--problem tsp --check 'Route: [#0, #1, #2, #3, #4], Objective: 1.00'" + style).out);
  ASSERT_EQ(good.size(), 1u);
  EXPECT_TRUE(good[0]["feasible_before"].get<bool>()) << good[0];
  const auto paper = json_lines(run_solve(dir_, "--problem tsp --check 'Route: [0, 1, 2, 3, 4], Objective: 1.00'" + style).out);
  ASSERT_EQ(paper.size(), 1u);
  EXPECT_FALSE(paper[0]["feasible_before"].get<bool>()) << paper[0];
  EXPECT_TRUE(paper[0]["feasible"].get<bool>()) << paper[0];
  const auto bad = run_solve(dir_, "--problem tsp --prompt --text-style fancy --generate n=5");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("--text-style"), std::string::npos) << bad.err;
}

}  // namespace
