// falcon_average end to end: two random tiny models of one shape (HF layout, the test tokenizer)
// average into a model directory that holds their mean and loads as a policy; what it refuses.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "falcon/eval/load_policy.h"
#include "falcon/model/config/model_presets.h"
#include "falcon/model/hf_checkpoint.h"
#include "falcon/model/state_dict.h"
#include "falcon/model/transformer.h"
#include "falcon/scoring/text_style_file.h"
#include "falcon/text/tokenizer.h"
#include "tests/tools/program_run.h"

namespace falcon::eval {
namespace {

namespace fs = std::filesystem;
using testing::ProgramRun;

ProgramRun run_average(const fs::path& dir, const std::string& args) {
  return testing::run_program(FALCON_AVERAGE_BIN, dir, args);
}

class FalconAverageTest : public testing::ScratchDirTest {
 protected:
  FalconAverageTest() : ScratchDirTest("falcon_average") {}

  // A random tiny model directory seeded by `seed`, `hidden` wide, in the compact text.
  std::string write_model(const std::string& name, int seed, int hidden = 32) {
    const std::string tokenizer = std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model";
    auto config = model::model_preset("tiny");
    config.vocab_size = text::Tokenizer::load(tokenizer).vocab_size();
    config.hidden_size = hidden;
    config.intermediate_size = 64;
    torch::manual_seed(seed);
    model::CausalLm lm(config);
    model::HfWriteOptions options;
    options.tokenizer_model = tokenizer;
    const std::string dir = (dir_ / name).string();
    model::write_hf_checkpoint(dir, config, model::state_dict(*lm), options);
    scoring::write_text_style(dir, formats::make_text_style("compact", 0, "test"));
    return dir;
  }
};

TEST_F(FalconAverageTest, WritesTheMeanAsAModelDirectoryThatLoads) {
  const auto a = write_model("a", 1), b = write_model("b", 2);
  const std::string out = (dir_ / "mean").string();
  const auto run = run_average(dir_, a + " " + b + " --out " + out);
  ASSERT_EQ(run.code, 0) << run.err;

  const auto wa = model::read_hf_checkpoint(a).weights, wb = model::read_hf_checkpoint(b).weights;
  const auto mean = model::read_hf_checkpoint(out);
  ASSERT_EQ(mean.weights.size(), wa.size());
  for (const auto& [name, tensor] : mean.weights)
    EXPECT_TRUE(torch::allclose(tensor, (wa.at(name) + wb.at(name)) / 2, 1e-6, 1e-6)) << name;
  EXPECT_FALSE(torch::equal(wa.begin()->second, wb.begin()->second));  // the two models differ

  // It loads as falcon_eval loads a model, with the inputs' text and tokenizer.
  scoring::ModelSpec spec;
  spec.path = out;
  spec.tokenizer = text::tokenizer_file(out);
  const auto policy = load_policy(spec, torch::Device(torch::kCPU));
  EXPECT_TRUE(policy.style == formats::make_text_style("compact", 0, "test"));
  const auto provenance = nlohmann::json::parse(std::ifstream(out + "/averaged_from.json"));
  EXPECT_EQ(provenance["averaged_from"], nlohmann::json({a, b}));
}

TEST_F(FalconAverageTest, RefusesAnExistingOutputAnotherShapeAndTooFewInputs) {
  const auto a = write_model("a", 1), b = write_model("b", 2), wide = write_model("wide", 3, 64);
  const auto kept = fs::last_write_time(a + "/model.safetensors");
  auto run = run_average(dir_, a + " " + b + " --out " + a);
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.err.find("exists; give a new directory"), std::string::npos) << run.err;
  EXPECT_EQ(fs::last_write_time(a + "/model.safetensors"), kept);  // nothing written over

  run = run_average(dir_, a + " " + wide + " --out " + (dir_ / "x").string());
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.err.find(wide + ": its model shape differs"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(dir_ / "x"));

  run = run_average(dir_, a + " --out " + (dir_ / "y").string());
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.err.find("at least two"), std::string::npos) << run.err;

  fs::create_directories(dir_ / "step_5");  // a checkpoint directory: no config.json
  run = run_average(dir_, a + " " + (dir_ / "step_5").string() + " --out " + (dir_ / "z").string());
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.err.find("holds no tokenizer; give --tokenizer"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace falcon::eval
