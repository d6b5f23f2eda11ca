#include "falcon/train/trainer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "falcon/core/error.h"
#include "falcon/model/safetensors.h"
#include "falcon/formats/text_style.h"
#include "falcon/scoring/text_style_file.h"

namespace falcon::train {
namespace {

namespace fs = std::filesystem;

// A whole recipe in seconds: a tiny TSP dataset, a tiny model, SFT then BOPO on LoRA.
class TrainerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("falcon_trainer_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Config recipe(const std::string& run) const {
    // One thread: a count that follows the machine's load (threads: 0) may differ between two runs,
    // and with it the order of float sums, where these tests compare weights bit for bit.
    const std::string text = "output_dir: " + (dir_ / run).string() + R"(
seed: 3
threads: 1
model: {preset: tiny, hidden_size: 32, intermediate_size: 64}
tokenizer: {vocab_size: 400}
data:
  config: )" + std::string(FALCON_SOURCE_DIR) + R"(/configs/data/tsp.yaml
  overrides: [output=)" + (dir_ / "tsp.h5").string() + R"(, splits.train.count=24, splits.val.count=2, splits.test.count=4, "sizes={range: [6, 8]}"]
stages:
  - {type: sft, steps: 6, batch_size: 4, lr: 0.003}
  - {type: bopo, steps: 4, batch_size: 2, lr: 0.001, lora: {rank: 2}, rollout: {samples_per_instance: 3, repair: true}}
eval: {instances: 0}
checkpoint: {keep_last: 3}
)";
    return Config::from_string(text, "<recipe>");
  }

  // recipe(run) on two problems, each batch from one of them: TSP-6..8 in the compact text and
  // MIS-8..10 with ranked notes, 12 training and 2 test instances each, 2 of each evaluated.
  Config two_problem_recipe(const std::string& run) const {
    auto datagen = [&](const std::string& problem, const std::string& sizes, const std::string& extra) {
      const fs::path path = dir_ / (problem + "_data.yaml");
      std::ofstream(path) << "problem: " << problem << "\nseed: 1\noutput: " << (dir_ / (problem + ".h5")).string()
                          << "\nsizes: " << sizes << "\n" << extra
                          << "label: {method: reference, time_limit_s: 0}\n"
                             "splits: {train: {count: 12}, val: {count: 1}, test: {count: 2}}\n";
      return path.string();
    };
    auto config = recipe(run);
    config.set_overrides(
        {"data.config=[" + datagen("tsp", "{range: [6, 8]}", "distributions: [uniform]\n") + ", " +
             datagen("mis", "{range: [8, 10]}", "distributions: [{name: er, params: {p: 0.3}}]\n") + "]",
         "data.overrides=[]", "tokenizer.numbers=whole_ids", "tokenizer.vocab_size=2400", "text.style=compact",
         "text.candidates=2", "text.problems={mis: {style: compact_ranked, candidates: 0}}",
         "model.max_position_embeddings=512", "eval.instances=2", "eval.computed_notes=auto",
         "data.batches=by_dataset"});
    return config;
  }

  TrainOptions options() const {
    TrainOptions o;
    o.progress = false;
    o.tokenizer_tool = FALCON_TOKENIZER_BIN;
    return o;
  }

  model::TensorMap final_weights(const std::string& run) const {
    return model::read_safetensors((dir_ / run / "final" / "model.safetensors").string());
  }

  // Two runs that must end bit for bit alike.
  void expect_same_final_weights(const std::string& run_a, const std::string& run_b) const {
    const auto a = final_weights(run_a), b = final_weights(run_b);
    ASSERT_EQ(a.size(), b.size());
    for (const auto& [name, tensor] : a) {
      ASSERT_TRUE(b.count(name)) << name;
      EXPECT_TRUE(torch::equal(tensor, b.at(name))) << name << " differs between " << run_a << " and " << run_b;
    }
  }

  fs::path dir_;
};

TEST_F(TrainerTest, RunsEveryStageAndWritesTheModelMetricsAndSummary) {
  auto config = recipe("full");
  auto result = run_training(config, options());
  ASSERT_EQ(result.stages.size(), 2u);
  EXPECT_EQ(result.stages[0].steps, 6);
  EXPECT_EQ(result.stages[1].steps, 4);
  EXPECT_TRUE(fs::exists(dir_ / "full" / "final" / "config.json"));
  EXPECT_TRUE(fs::exists(dir_ / "full" / "final" / "tokenizer.model"));
  EXPECT_TRUE(fs::exists(dir_ / "full" / "final" / "adapter" / "adapter_model.safetensors"));
  EXPECT_TRUE(fs::exists(dir_ / "full" / "summary.json"));
  std::ifstream metrics(dir_ / "full" / "metrics.jsonl");
  int lines = 0;
  for (std::string line; std::getline(metrics, line);) ++lines;
  EXPECT_GE(lines, 2);
  EXPECT_FALSE(final_weights("full").empty());
}

// The compact text style end to end: its tokenizer (ID pieces), SFT on augmented examples, BOPO
// rollouts under the compact grammar, the stage evaluation, and the style saved beside the final model for the evaluator.
TEST_F(TrainerTest, TrainsAndEvaluatesInTheCompactTextStyle) {
  auto config = recipe("compact");
  config.set_overrides({"tokenizer.numbers=whole_ids", "tokenizer.vocab_size=2400", "text.style=compact",
                        "text.candidates=2", "eval.instances=2", "eval.samples=2", "data.augment=true"});
  auto result = run_training(config, options());
  ASSERT_EQ(result.stages.size(), 2u);
  EXPECT_EQ(result.stages[1].steps, 4);
  EXPECT_EQ(result.stages[1].eval.instances, 2);
  EXPECT_EQ(result.stages[1].eval.feasible, 1.0);  // repair completes whatever the tiny model writes
  std::ifstream style(dir_ / "compact" / "final" / "text_style.json");
  std::stringstream text;
  text << style.rdbuf();
  EXPECT_NE(text.str().find("\"compact\""), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("\"candidates\": 2"), std::string::npos) << text.str();
}

// A note text trained on the model's choices only: SFT and BOPO (rollouts with computed notes)
// run and evaluate, and the loss is another mean than the one over every token.
TEST_F(TrainerTest, TrainsAStateTextWithTheNotesLeftOutOfTheLoss) {
  const std::vector<std::string> mis = {
      "tokenizer.numbers=whole_ids", "tokenizer.vocab_size=2400", "text.style=compact_state",
      "data.config=" + std::string(FALCON_SOURCE_DIR) + "/configs/data/mis.yaml",
      "data.overrides=[output=" + (dir_ / "mis.h5").string() +
          ", splits.train.count=12, splits.val.count=1, splits.test.count=2, \"sizes={range: [8, 10]}\"]",
      "model.max_position_embeddings=512", "stages[1].rollout.computed_notes=true", "stages[1].rollout.repair=false"};
  auto all_tokens = recipe("notes_in");
  all_tokens.set_overrides(mis);
  const auto in = run_training(all_tokens, options());
  auto choices = recipe("notes_out");
  auto overrides = mis;
  overrides.insert(overrides.end(), {"stages[0].loss_on_notes=false", "stages[1].loss_on_notes=false", "eval.instances=2"});
  choices.set_overrides(overrides);
  const auto out = run_training(choices, options());
  ASSERT_EQ(out.stages.size(), 2u);
  EXPECT_EQ(out.stages[0].steps, 6);
  EXPECT_EQ(out.stages[1].steps, 4);
  EXPECT_EQ(out.stages[1].eval.instances, 2);
  EXPECT_NE(out.stages[0].last_loss, in.stages[0].last_loss);
}

// One model of two problems, each in its own text: TSP compact, MIS with ranked notes. The
// tokenizer, SFT examples and BOPO rollouts (notes computed where the text has them, so only on
// MIS) follow each problem's style, and the model keeps the whole style beside it. MIS takes its
// own preference options (stages[i].problems), the notes left out of its loss in both stages.
// (Each batch from one dataset: the wiring of data.batches and data.weights; data_order_test checks the order.)
TEST_F(TrainerTest, AModelOfSeveralProblemsWritesEachInItsOwnText) {
  auto config = two_problem_recipe("two");
  config.set_overrides({"stages[1].rollout.computed_notes=auto", "stages[1].rollout.repair=false", "data.weights=[2, 1]",
                        "stages[0].problems={mis: {loss_on_notes: false}}",
                        "stages[1].problems={mis: {infeasible_losers: true, loss_on_notes: false}}", "logging.every=1"});
  const auto result = run_training(config, options());
  ASSERT_EQ(result.stages.size(), 2u);
  EXPECT_EQ(result.stages[1].steps, 4);
  auto expected = formats::make_text_style("compact", 2, "t");
  formats::set_problem_text_style(expected, "mis", "compact_ranked", 0, "t");
  EXPECT_EQ(scoring::read_text_style((dir_ / "two" / "final").string()), expected);

  // Each problem's own figures: every SFT step (one batch, from one dataset) logs its loss under
  // that dataset's name, and each evaluation counts each dataset's instances apart.
  std::map<std::string, int> sft_steps_of;
  int eval_lines = 0;
  std::ifstream metrics(dir_ / "two" / "metrics.jsonl");
  for (std::string text; std::getline(metrics, text);) {
    const auto line = nlohmann::json::parse(text);
    if (line.contains("eval")) {
      ++eval_lines;
      const auto& by_dataset = line["eval"].at("by_dataset");
      ASSERT_EQ(by_dataset.size(), 2u) << text;
      EXPECT_EQ(by_dataset.at("tsp").at("instances"), 2) << text;
      EXPECT_EQ(by_dataset.at("mis").at("instances"), 2) << text;
      continue;
    }
    if (line["type"] != "sft") continue;
    const auto& by_dataset = line.at("loss_by_dataset");
    ASSERT_EQ(by_dataset.size(), 1u) << text;
    EXPECT_NEAR(by_dataset.begin().value().get<double>(), line["loss"].get<double>(), 1e-9) << text;
    ++sft_steps_of[by_dataset.begin().key()];
  }
  EXPECT_EQ(eval_lines, 2);
  EXPECT_EQ(sft_steps_of["tsp"], 4);  // data.weights [2, 1]: two rounds of 3 batches in 6 steps
  EXPECT_EQ(sft_steps_of["mis"], 2);
  ASSERT_EQ(result.stages[0].eval.by_dataset.size(), 2u);
  EXPECT_EQ(result.stages[0].eval.by_dataset[0].first, "tsp");
}

// A curriculum: a first stage of MIS only (a weight of 0 leaves TSP out), then both. The first
// stage trains and is evaluated on MIS alone; the second on both.
TEST_F(TrainerTest, AStageThatLeavesADatasetOutIsEvaluatedOnTheOthers) {
  auto config = two_problem_recipe("curriculum");
  config.set_overrides({"stages[0].weights=[0, 1]", "data.weights=[1, 1]", "stages[1].rollout.computed_notes=auto",
                        "logging.every=1"});
  const auto result = run_training(config, options());
  ASSERT_EQ(result.stages.size(), 2u);
  ASSERT_EQ(result.stages[0].eval.by_dataset.size(), 1u);
  EXPECT_EQ(result.stages[0].eval.by_dataset[0].first, "mis");
  EXPECT_EQ(result.stages[0].eval.instances, 2);
  ASSERT_EQ(result.stages[1].eval.by_dataset.size(), 2u);
  EXPECT_EQ(result.stages[1].eval.instances, 4);
  std::map<std::string, int> sft_steps_of;
  std::ifstream metrics(dir_ / "curriculum" / "metrics.jsonl");
  for (std::string text; std::getline(metrics, text);) {
    const auto line = nlohmann::json::parse(text);
    if (line.contains("eval") && line["stage"] == result.stages[0].name)
      EXPECT_EQ(line["eval"].at("by_dataset").size(), 1u) << text;
    if (line.value("type", "") != "sft") continue;
    for (const auto& [name, loss] : line.at("loss_by_dataset").items()) ++sft_steps_of[name];
  }
  EXPECT_EQ(sft_steps_of["mis"], 6);
  EXPECT_EQ(sft_steps_of.count("tsp"), 0u);
}

TEST_F(TrainerTest, CompactStyleNeedsWholeIdPieces) {
  auto config = recipe("compact_plain");
  config.set_overrides({"text.style=compact"});
  try {
    run_training(config, options());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("whole_ids"), std::string::npos) << e.what();
  }
}

// Killed twice (mid-SFT, then mid-BOPO) and resumed: the same final weights, bit for bit, as one
// uninterrupted run.
TEST_F(TrainerTest, ResumeIsBitIdenticalToAnUninterruptedRun) {
  {
    auto config = recipe("once");
    run_training(config, options());
  }
  auto o = options();
  o.stop_after_steps = 3;
  {
    auto config = recipe("twice");
    EXPECT_TRUE(run_training(config, o).stopped_early);
  }
  o.resume = true;
  o.stop_after_steps = 5;  // 3 + 5 = 8: two steps into BOPO
  {
    auto config = recipe("twice");
    EXPECT_TRUE(run_training(config, o).stopped_early);
  }
  o.stop_after_steps = 0;
  {
    auto config = recipe("twice");
    EXPECT_FALSE(run_training(config, o).stopped_early);
  }
  expect_same_final_weights("once", "twice");
}

// A run started from step 0 where an earlier one is would replace its checkpoints and metrics: it
// is refused, naming the ways on, and nothing there changes; --overwrite starts again there, as a
// run in an empty folder does.
TEST_F(TrainerTest, RefusesToStartOverAnEarlierRunUnlessOverwriteIsGiven) {
  auto o = options();
  o.stop_after_steps = 2;
  {
    auto config = recipe("earlier");
    EXPECT_TRUE(run_training(config, o).stopped_early);
  }
  const fs::path checkpoints = dir_ / "earlier" / "checkpoints";
  auto latest = [&] {
    std::ifstream in(checkpoints / "latest");
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string latest_before = latest();
  o.stop_after_steps = 0;
  try {
    auto config = recipe("earlier");
    run_training(config, o);
    ADD_FAILURE() << "started over an earlier run";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("holds an earlier run (checkpoints/ (latest: step_2), metrics.jsonl)"), std::string::npos) << what;
    EXPECT_NE(what.find("--resume"), std::string::npos) << what;
    EXPECT_NE(what.find("--overwrite"), std::string::npos) << what;
  }
  EXPECT_EQ(latest(), latest_before);
  EXPECT_TRUE(fs::exists(checkpoints / "step_2"));

  o.resume = o.overwrite = true;
  {
    auto config = recipe("earlier");
    EXPECT_THROW(run_training(config, o), Error);
  }
  o.resume = false;
  {
    auto config = recipe("earlier");
    EXPECT_FALSE(run_training(config, o).stopped_early);
  }
  EXPECT_FALSE(fs::exists(checkpoints / "step_2"));
  {
    auto config = recipe("empty_folder");
    run_training(config, options());
  }
  expect_same_final_weights("earlier", "empty_folder");
}

// A BOPO variant started from another run's SFT checkpoint runs only the later stages.
TEST_F(TrainerTest, StartsALaterStageFromAnotherRunsCheckpoint) {
  {
    auto config = recipe("sft");
    run_training(config, options());
  }
  auto config = recipe("variant");
  config.set_override("init.checkpoint=" + (dir_ / "sft" / "checkpoints" / "step_6").string());
  config.set_override("init.start_stage=1");
  config.set_override("tokenizer.path=" + (dir_ / "sft" / "tokenizer.model").string());
  auto result = run_training(config, options());
  ASSERT_EQ(result.stages.size(), 1u);
  EXPECT_EQ(result.stages[0].kind, recipe::StageKind::kBopo);

  auto missing_tokenizer = recipe("variant2");
  missing_tokenizer.set_override("init.checkpoint=" + (dir_ / "sft" / "checkpoints" / "step_6").string());
  missing_tokenizer.set_override("init.start_stage=1");
  EXPECT_THROW(run_training(missing_tokenizer, options()), Error);

  // A model only reads the text style it was trained on.
  auto other_style = recipe("variant3");
  other_style.set_overrides({"init.checkpoint=" + (dir_ / "sft" / "checkpoints" / "step_6").string(), "init.start_stage=1",
                             "tokenizer.path=" + (dir_ / "sft" / "tokenizer.model").string(), "text.style=compact"});
  try {
    run_training(other_style, options());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("trained on 'paper'"), std::string::npos) << e.what();
  }
  // Unless the recipe asks for it: a curriculum from one text to another.
  auto curriculum = recipe("variant4");
  curriculum.set_overrides({"init.checkpoint=" + (dir_ / "sft" / "checkpoints" / "step_6").string(), "init.start_stage=1",
                            "tokenizer.path=" + (dir_ / "sft" / "tokenizer.model").string(), "text.style=compact",
                            "init.other_text_style=true"});
  EXPECT_EQ(run_training(curriculum, options()).stages.size(), 1u);
}

// Training continues from a released model: a model directory as init.checkpoint brings its
// weights (LoRA merged) and its tokenizer, and must be of the recipe's text style.
TEST_F(TrainerTest, ContinuesFromAModelDirectory) {
  {
    auto config = recipe("release");
    run_training(config, options());
  }
  const fs::path release = dir_ / "release" / "final";
  auto config = recipe("continued");
  // One step at a rate too small to move anything: the weights stay the release's.
  config.set_overrides({"init.checkpoint=" + release.string(), "stages=[{type: sft, steps: 1, batch_size: 4, lr: 1.0e-12}]"});
  run_training(config, options());
  const auto before = final_weights("release"), after = final_weights("continued");
  ASSERT_EQ(before.size(), after.size());
  for (const auto& [name, tensor] : before) {
    ASSERT_TRUE(after.count(name)) << name;
    EXPECT_TRUE(torch::allclose(tensor, after.at(name), 0, 1e-6)) << name << " is not the release's";
  }
  std::ifstream a(release / "tokenizer.model", std::ios::binary), b(dir_ / "continued" / "final" / "tokenizer.model", std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(a), {}), std::string(std::istreambuf_iterator<char>(b), {}));

  auto other_style = recipe("continued_compact");
  other_style.set_overrides({"init.checkpoint=" + release.string(), "text.style=compact"});
  try {
    run_training(other_style, options());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("text_style.json"), std::string::npos) << e.what();
  }
}

// A checkpoint written before a recipe key existed resumes: the missing key reads as its default.
// Set to anything else, it is a change like any other.
TEST_F(TrainerTest, ResumeReadsAKeyAddedSinceTheCheckpointAtItsDefault) {
  auto o = options();
  o.stop_after_steps = 2;
  {
    auto config = recipe("older");
    run_training(config, o);
  }
  const auto stored = dir_ / "older" / "checkpoints" / "step_2" / "config.yaml";
  std::ifstream in(stored);
  std::string yaml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const std::string key = "  other_text_style: false\n";
  ASSERT_NE(yaml.find(key), std::string::npos) << yaml;
  yaml.erase(yaml.find(key), key.size());
  std::ofstream(stored) << yaml;

  o.resume = true;
  o.stop_after_steps = 1;
  {
    auto config = recipe("older");
    EXPECT_TRUE(run_training(config, o).stopped_early);
  }
  auto changed = recipe("older");
  changed.set_override("init.other_text_style=true");
  try {
    run_training(changed, o);
    FAIL() << "resumed with init.other_text_style changed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("other_text_style"), std::string::npos) << e.what();
  }
}

// At a constant rate a stage's steps do not depend on its length: a run stopped early, moved to
// another folder and resumed as a shorter run ends bit for bit as that run does. Another schedule,
// or a checkpoint past the new end, is refused.
TEST_F(TrainerTest, ResumeMayChangeTheLengthOfAConstantRateStageAndTheFolder) {
  auto constant = [&](const std::string& run, int sft_steps) {
    auto config = recipe(run);
    config.set_overrides({"stages[0].schedule=constant", "stages[0].steps=" + std::to_string(sft_steps)});
    return config;
  };
  {
    auto config = constant("short", 4);
    run_training(config, options());
  }
  auto o = options();
  o.stop_after_steps = 4;
  {
    auto config = constant("long", 20);
    EXPECT_TRUE(run_training(config, o).stopped_early);
  }
  fs::rename(dir_ / "long", dir_ / "moved");
  o.resume = true;
  o.stop_after_steps = 0;
  {
    auto config = constant("moved", 4);
    EXPECT_FALSE(run_training(config, o).stopped_early);
  }
  expect_same_final_weights("short", "moved");

  auto error_of = [&](Config config) -> std::string {
    try {
      run_training(config, o);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  auto fresh = options();
  fresh.stop_after_steps = 2;
  {
    auto config = constant("again", 20);
    run_training(config, fresh);
  }
  EXPECT_NE(error_of(constant("again", 1)).find("at step 2 of stage 'sft', past its 1 steps"), std::string::npos);
  {
    auto config = recipe("cosine");  // the default schedule: its decay depends on the length
    run_training(config, fresh);
  }
  auto longer = recipe("cosine");
  longer.set_override("stages[0].steps=8");
  EXPECT_NE(error_of(std::move(longer)).find("key 'stages"), std::string::npos);
}

// With wsd the rate is flat until the decay: a run stopped before it may be resumed as a shorter or
// longer one, which then decays as a fresh run of that length does. Not once the new length's
// decay would have begun.
TEST_F(TrainerTest, ResumeMayChangeTheLengthOfAWsdStageBeforeItsDecay) {
  auto wsd = [&](const std::string& run, int sft_steps) {
    auto config = recipe(run);
    config.set_overrides({"stages[0].schedule=wsd", "stages[0].decay_steps=3", "stages[0].steps=" + std::to_string(sft_steps)});
    return config;
  };
  {
    auto config = wsd("fresh", 6);
    run_training(config, options());
  }
  auto o = options();
  o.stop_after_steps = 3;
  {
    auto config = wsd("stopped", 20);
    EXPECT_TRUE(run_training(config, o).stopped_early);
  }
  o.resume = true;
  o.stop_after_steps = 0;
  try {
    auto config = wsd("stopped", 5);  // 5 - 3 = 2 flat steps: the checkpoint at 3 has passed them
    run_training(config, o);
    ADD_FAILURE() << "a resume past the new length's flat part was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("past its 5 steps less their decay; resume with at least 6"), std::string::npos)
        << e.what();
  }
  {
    auto config = wsd("stopped", 6);
    EXPECT_FALSE(run_training(config, o).stopped_early);
  }
  expect_same_final_weights("fresh", "stopped");
}

TEST_F(TrainerTest, ResumeRefusesAChangedRecipe) {
  auto o = options();
  o.stop_after_steps = 2;
  {
    auto config = recipe("run");
    run_training(config, o);
  }
  o.resume = true;
  auto config = recipe("run");
  config.set_override("stages[0].lr=0.01");
  try {
    run_training(config, o);
    FAIL() << "resumed with a different learning rate";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("stages"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace falcon::train

namespace falcon::train {
namespace {

// Every committed recipe reads without an error (keys, types, values).
TEST(Recipes, EveryCommittedRecipeIsValid) {
  int recipes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(FALCON_SOURCE_DIR) + "/configs")) {
    if (entry.path().extension() != ".yaml") continue;
    auto config = Config::from_file(entry.path().string());
    std::ostringstream out;
    EXPECT_NO_THROW(print_resolved_recipe(config, out)) << entry.path();
    ++recipes;
  }
  EXPECT_GE(recipes, 15);
}

}  // namespace
}  // namespace falcon::train
