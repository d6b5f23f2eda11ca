// Every released model in models/<problem>/ loads and, decoded alone (greedy, grammar and the
// text's computed notes, no repair) on its card's check instances, is as valid and as good as its
// card says. A model, tokenizer or text style swapped for another problem's, or broken, fails here.
//
// release.json beside each model (models/README.md):
//   {"problem": "tsp", "data": "configs/data/tsp20.yaml",
//    "check": {"instances": 20, "valid": 1.0, "gap_valid": 0.085}}
// The check instances are the first `instances` of the data config's test split, made again here
// by falcon_datagen's library (the generator is seeded per split and index, so they are the
// held-out split's own), and measured by the same row when the model was released.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "falcon/core/config.h"
#include "falcon/data/datagen.h"
#include "falcon/data/datagen_spec.h"
#include "falcon/eval/run_eval.h"

namespace falcon::eval {

using namespace scoring;  // the run is written in the terms of what it scores
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kModels = fs::path(FALCON_SOURCE_DIR) / "models";

std::vector<fs::path> released_models() {
  std::vector<fs::path> out;
  if (!fs::exists(kModels)) return out;
  for (const auto& entry : fs::directory_iterator(kModels))
    if (entry.is_directory() && fs::exists(entry.path() / "release.json")) out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

json read_json(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

// The check instances of a release: its data config's test split, the first `count` records.
std::string make_check_data(const std::string& data_config, int count, const fs::path& out) {
  auto config = Config::from_file((fs::path(FALCON_SOURCE_DIR) / data_config).string());
  config.set_overrides({"output=" + out.string(), "splits.train.count=1", "splits.val.count=1",
                        "splits.test.count=" + std::to_string(count)});
  const auto spec = data::read_datagen_spec(config);
  data::run_datagen(spec, {/*progress=*/false});
  return out.string();
}

class ReleasedModels : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("falcon_releases_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(ReleasedModels, EachDecodesItsCheckInstancesAsItsCardSays) {
  const auto models = released_models();
  if (models.empty()) GTEST_SKIP() << "no release under " << kModels;
  for (const auto& model : models) {
    SCOPED_TRACE(model.string());
    const json release = read_json(model / "release.json");
    const std::string problem = release.at("problem");
    // models/<problem>/ holds a model of that problem (models/all: of several).
    if (model.filename() != "all") EXPECT_EQ(problem, model.filename().string());
    for (const char* file : {"config.json", "model.safetensors", "tokenizer.model", "text_style.json", "README.md"})
      EXPECT_TRUE(fs::exists(model / file)) << file;
    const auto& check = release.at("check");
    const int count = check.at("instances");
    const auto data = make_check_data(release.at("data"), count, dir_ / (problem + ".h5"));
    const auto out = dir_ / ("eval_" + model.filename().string());
    auto config = Config::from_string("model: {path: " + model.string() + "}\ndata: {dataset: " + data +
                                          "}\nrows: [{type: greedy, repair: false, computed_notes: auto}]\n"
                                          "threads: 1\noutput_dir: " + out.string() + "\n",
                                      "<release check>");
    const auto report = run_eval(config, EvalOptions{/*progress=*/false, /*plot_file=*/""});
    ASSERT_EQ(report.rows.size(), 1u);
    const auto& row = report.rows[0];
    EXPECT_EQ(row.instances, count);
    // Greedy decoding is deterministic; the slack covers another BLAS's rounding flipping a near tie.
    const double valid = check.at("valid");
    const double gap_valid = check.at("gap_valid");
    EXPECT_GE(row.feasible_raw, valid - 0.1) << "share of valid answers, model alone";
    ASSERT_TRUE(row.gap_feasible.has_value()) << "no valid answer at all";
    EXPECT_LE(*row.gap_feasible, gap_valid + 0.02) << "mean gap of the valid answers, model alone";
  }
}

// One benchmark-format file per problem, with no known optimum: what a user brings.
const std::map<std::string, std::string> kUnlabelledFile = {
    {"tsp", "tsp/square5.tsp"},   {"op", "op/tiny.oplib"},       {"cvrp", "cvrp/tiny-n5-k2.vrp"},
    {"mis", "mis/path5.mis"},     {"mvc", "mis/path5.mis"},      {"pfsp", "pfsp/valid_crlf.txt"},
    {"jssp", "jssp/tiny.txt"}};

TEST_F(ReleasedModels, EachAnswersAnInstanceFileThatCarriesNoLabel) {
  const auto models = released_models();
  if (models.empty()) GTEST_SKIP() << "no release under " << kModels;
  for (const auto& model : models) {
    SCOPED_TRACE(model.string());
    const std::string problem = read_json(model / "release.json").at("problem");
    if (!kUnlabelledFile.count(problem)) continue;  // models/all names no single problem
    const auto out = dir_ / ("files_" + model.filename().string());
    auto config = Config::from_string("model: {path: " + model.string() + "}\ndata: {files: [" FALCON_FIXTURES_DIR "/" +
                                          kUnlabelledFile.at(problem) + "], problem: " + problem +
                                          "}\nrows: [{type: greedy, computed_notes: auto}]\n"
                                          "threads: 1\noutput_dir: " + out.string() + "\n",
                                      "<release on a file>");
    const auto report = run_eval(config, EvalOptions{/*progress=*/false, /*plot_file=*/""});
    ASSERT_EQ(report.rows.size(), 1u);
    EXPECT_EQ(report.rows[0].instances, 1);
    EXPECT_EQ(report.rows[0].feasible, 1.0);      // repair on
    EXPECT_EQ(report.rows[0].no_reference, 1);    // no label: no gap, and nothing asked for one
  }
}

}  // namespace
}  // namespace falcon::eval
