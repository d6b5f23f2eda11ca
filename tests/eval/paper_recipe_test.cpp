// The paper-scale recipe (configs/paper/) at tiny width: Qwen's real tokenizer.json (151,669 tokens)
// and its chatml instruct format through the whole path, random weights, a few steps: SFT on LoRA,
// then BOPO on LoRA (rollouts under grammar masks over the full vocabulary, repair), the stage
// evaluation, final/ with tokenizer.json and the template, and falcon_eval on it.
// Skips without tools/fetch_tokenizers.sh.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "falcon/core/config.h"
#include "falcon/eval/load_policy.h"
#include "falcon/eval/run_eval.h"
#include "falcon/policy/prompt_text.h"
#include "falcon/problems/registry.h"
#include "falcon/train/trainer.h"

namespace falcon::eval {

using namespace scoring;  // the run is written in the terms of what it scores
namespace {

namespace fs = std::filesystem;

TEST(PaperRecipe, RunsEndToEndAtTinyWidthWithQwensTokenizer) {
  const fs::path qwen = fs::path(FALCON_TOKENIZERS_DIR) / "qwen3" / "tokenizer.json";
  if (!fs::exists(qwen)) GTEST_SKIP() << qwen << " is absent: run tools/fetch_tokenizers.sh to test the Qwen path";
  const fs::path dir = fs::temp_directory_path() / ("falcon_qwen_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  // configs/paper/'s recipe as it is, but tiny: its stages, LoRA, chat template, BOPO options and
  // evaluation, with random weights instead of Qwen2.5-7B and a few steps on a few small instances.
  auto recipe = Config::from_file(std::string(FALCON_SOURCE_DIR) + "/configs/paper/bopo_tsp_qwen2.5_7b.yaml");
  recipe.set_overrides({"output_dir=" + (dir / "run").string(), "device=cpu", "mixed_precision=none", "threads=1",
                        "init.checkpoint=", "tokenizer.path=" + qwen.string(), "model.preset=tiny",
                        "model.hidden_size=32", "model.intermediate_size=64", "model.max_position_embeddings=1024",
                        "data.config=" + std::string(FALCON_SOURCE_DIR) + "/configs/data/tsp.yaml",
                        "data.overrides=[output=" + (dir / "tsp.h5").string() +
                            ", splits.train.count=4, splits.val.count=1, splits.test.count=2, \"sizes={range: [5, 6]}\"]",
                        "stages[0].epochs=0", "stages[0].steps=2", "stages[0].batch_size=2", "stages[0].grad_accum=1",
                        "stages[1].steps=1", "stages[1].batch_size=2", "stages[1].grad_accum=1",
                        "stages[1].rollout.samples_per_instance=2", "eval.instances=2", "eval.samples=2"});
  train::TrainOptions options;
  options.progress = false;
  const auto result = train::run_training(recipe, options);
  ASSERT_EQ(result.stages.size(), 2u);
  EXPECT_EQ(result.stages[1].eval.instances, 2);
  EXPECT_EQ(result.stages[1].eval.feasible, 1.0);  // repair completes whatever random weights write
  const fs::path final_dir = dir / "run" / "final";
  EXPECT_TRUE(fs::exists(final_dir / "tokenizer.json"));
  EXPECT_TRUE(fs::exists(final_dir / "tokenizer_config.json"));
  std::ifstream style_file(final_dir / "text_style.json");
  std::stringstream style;
  style << style_file.rdbuf();
  EXPECT_NE(style.str().find("\"chat\": \"chatml\""), std::string::npos) << style.str();

  // The evaluator reads the template from the model directory: prompts in chatml, EOS <|im_end|>.
  ModelSpec spec;
  spec.path = final_dir.string();
  spec.tokenizer = text::tokenizer_file(spec.path);
  const auto policy = load_policy(spec, torch::kCPU);
  EXPECT_EQ(policy.tokenizer.vocab_size(), 151669);
  EXPECT_EQ(policy.tokenizer.piece(policy.tokenizer.eos_id()), "<|im_end|>");
  const auto& tsp = problems::problem_by_name("tsp");
  problems::GenerateOptions gen;
  gen.n = 5;
  const auto prompt = policy::prompt_tokens(tsp, *tsp.generate(gen, 1), policy.tokenizer);
  ASSERT_GE(prompt.size(), 4u);
  EXPECT_EQ(policy.tokenizer.piece(prompt.front()), "<|im_start|>");  // no BOS: Qwen has none
  EXPECT_EQ(policy.tokenizer.piece(prompt[prompt.size() - 2]), "assistant");

  auto config = Config::from_string("model: {path: " + final_dir.string() + "}\ndata: {dataset: " + (dir / "tsp.h5").string() +
                                        "}\nrows: [{type: greedy}, {type: fixed, n: 2, temperature: 1.0}]\nthreads: 1\n"
                                        "output_dir: " + (dir / "eval").string() + "\n",
                                    "<eval>");
  const auto report = run_eval(config, EvalOptions{/*progress=*/false, /*plot_file=*/""});
  ASSERT_EQ(report.rows.size(), 2u);
  for (const auto& row : report.rows) {
    EXPECT_EQ(row.instances, 2);
    EXPECT_EQ(row.feasible, 1.0);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace falcon::eval
