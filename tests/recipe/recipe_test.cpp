#include "falcon/recipe/recipe.h"

#include <gtest/gtest.h>

#include "falcon/core/cpu_features.h"
#include "falcon/core/error.h"

namespace falcon::recipe {
namespace {

const char* kRecipe = R"(
output_dir: runs/test
data: {config: configs/data/tsp.yaml, overrides: [splits.train.count=10]}
stages:
  - {type: sft, epochs: 2, lr: 0.001}
  - type: bopo
    steps: 5
    beta: 0.2
    lora: {rank: 4}
    rollout: {samples_per_instance: 4, grammar: true}
)";

TEST(Recipe, ReadsStagesWithPaperDefaults) {
  auto config = Config::from_string(kRecipe, "<recipe>");
  auto recipe = read_recipe(config);
  config.check_unused();
  ASSERT_EQ(recipe.stages.size(), 2u);
  EXPECT_EQ(recipe.stages[0].kind, StageKind::kSft);
  EXPECT_EQ(recipe.stages[0].lora.rank, 0);  // SFT is full fine-tuning by default
  EXPECT_DOUBLE_EQ(recipe.stages[0].keys_of<SftKeys>().epochs, 2.0);
  const auto& bopo = recipe.stages[1];
  EXPECT_EQ(bopo.kind, StageKind::kBopo);
  EXPECT_EQ(bopo.name, "bopo");
  EXPECT_DOUBLE_EQ(bopo.keys_of<BopoKeys>().beta, 0.2);
  EXPECT_EQ(bopo.keys_of<BopoKeys>().reference, "none");       // the paper's s_theta has no reference term
  EXPECT_FALSE(bopo.keys_of<BopoKeys>().length_normalise);
  EXPECT_EQ(bopo.rollout.samples_per_instance, 4);
  EXPECT_EQ(bopo.lora.rank, 4);
  EXPECT_DOUBLE_EQ(bopo.lora.alpha, 4.0);
  EXPECT_EQ(recipe.data.overrides, std::vector<std::string>{"splits.train.count=10"});
  EXPECT_EQ(recipe.data.configs, std::vector<std::string>{"configs/data/tsp.yaml"});
  // Defaults are written into the resolved YAML.
  EXPECT_NE(config.to_yaml().find("min_lr_ratio"), std::string::npos);
}

void expect_error(const std::string& text, const std::string& fragment) {
  try {
    auto config = Config::from_string(text, "<recipe>");
    read_recipe(config);
    config.check_unused();
    FAIL() << "no error for:\n" << text;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Recipe, BadKeysAndValuesNameTheirPath) {
  const std::string base = "output_dir: x\ndata: {config: c.yaml}\n";
  expect_error(base + "stages: [{type: sft, epochs: 1, lrr: 0.1}]", "stages[0].lrr");
  expect_error(base + "stages: [{type: bpo, steps: 1}]", "unknown stage type 'bpo'");
  expect_error(base + "stages: [{type: bopo, steps: 0}]", "stages[0].steps");
  expect_error(base + "stages: [{type: bopo, steps: 3, rollout: {samples_per_instance: 1}}]",
               "stages[0].rollout.samples_per_instance");
  expect_error(base + "stages: [{type: dpo, steps: 3, lora: {rank: 0}}]", "stages[0].lora.rank");
  expect_error(base + "stages: [{type: sft, epochs: 1, schedule: cosin}]", "unknown schedule");
  expect_error(base + "stages: [{type: sft, epochs: 1, schedule: wsd}]", "stages[0].decay_steps");
  expect_error(base + "stages: []", "stages");
  expect_error("data: {config: c.yaml}\nstages: [{type: sft}]", "output_dir");
  expect_error(base + "stages: [{type: sft, batch_size: many}]", "batch_size");
  expect_error(base + "stages: [{type: sft}]\ndistributed: {backend: mpi}", "distributed.backend");
  expect_error(base + "stages: [{type: sft}]\ndistributed: {timeout_s: 0}", "distributed.timeout_s");
  expect_error(base + "stages: [{type: sft}]\ndistributed: {buckets: 2}", "distributed.buckets");
  expect_error(base + "stages: [{type: sft}]\ntokenizer: {numbers: digits}", "tokenizer.numbers");
  expect_error(base + "stages: [{type: sft}]\ntokenizer: {numbers: whole, vocab_size: 1000}", "tokenizer.vocab_size");
  expect_error(base + "stages: [{type: sft}]\ninit: {number_embedding: sine}", "init.number_embedding");
  expect_error(base + "stages: [{type: sft}]\nmixed_precision: fp16", "mixed_precision must be none, bf16");
  // The semantic masks read the grammar's text: without the grammar they would apply it silently.
  expect_error(base + "stages: [{type: bopo, steps: 3, rollout: {grammar: false, semantic_mask: true}}]",
               "stages[0].rollout.semantic_mask needs grammar: true");
  expect_error(base + "stages: [{type: bopo, steps: 3, rollout: {semantic_mask: true, computed_notes: true}}]",
               "stages[0].rollout.computed_notes cannot be combined with semantic_mask");
  expect_error(base + "stages: [{type: bopo, steps: 3, lora: {rank: 8, target_modules: []}}]",
               "stages[0].lora.target_modules must name at least one module");
  expect_error(base + "stages: [{type: grpo, steps: 3, loss_type: dapo}]", "stages[0].loss_type must be 'grpo'");
  expect_error(base + "stages: [{type: bopo, steps: 3, loss_type: dr_grpo}]", "stages[0].loss_type");  // GRPO's key
}

TEST(Recipe, AutoMixedPrecisionIsBf16OnCudaAndOnCpusWithNativeBf16) {
  const std::string base = "output_dir: out\ndata: {config: c.yaml}\nstages: [{type: sft}]\nmixed_precision: auto\n";
  auto cpu = Config::from_string(base, "<recipe>");
  EXPECT_EQ(read_recipe(cpu).mixed_precision, cpu_has_native_bf16() ? "bf16" : "none");
  auto cuda = Config::from_string(base + "device: cuda\n", "<recipe>");
  EXPECT_EQ(read_recipe(cuda).mixed_precision, "bf16");
}

TEST(Recipe, GrpoLossTypeDefaultsToTheTokenMean) {
  const std::string base = "output_dir: o\ndata: {config: c.yaml}\n";
  auto config = Config::from_string(base + "stages: [{type: grpo, steps: 3}, {type: foarl, steps: 3, loss_type: dr_grpo}]",
                                    "<recipe>");
  auto recipe = read_recipe(config);
  config.check_unused();
  EXPECT_EQ(recipe.stages[0].keys_of<GrpoKeys>().loss_type, "grpo");
  EXPECT_EQ(recipe.stages[1].keys_of<GrpoKeys>().loss_type, "dr_grpo");
}

// loss_on_notes: false needs notes to leave out (in a sampling stage, notes the decoder wrote), and
// then the stages' evaluation writes them.
TEST(Recipe, LeavingNotesOutOfTheLossNeedsANoteTextAndTurnsOnComputedNotesInEvaluation) {
  const std::string base = "output_dir: x\ndata: {config: c.yaml}\ntokenizer: {numbers: whole_ids, vocab_size: 2400}\n";
  expect_error(base + "text: {style: compact}\nstages: [{type: sft, loss_on_notes: false}]",
               "stages[0].loss_on_notes can be false only with a text that writes notes");
  expect_error(base + "text: {style: compact}\nstages: [{type: sft}]\neval: {computed_notes: true}",
               "eval.computed_notes needs a text that writes notes");
  expect_error(base + "text: {style: compact_state}\nstages: [{type: bopo, steps: 2, loss_on_notes: false}]",
               "stages[0].loss_on_notes can be false in a sampling stage only with rollout.computed_notes: true");
  auto config = Config::from_string(base + "text: {style: compact_state}\nstages: [{type: sft, loss_on_notes: false}]",
                                    "<recipe>");
  const auto recipe = read_recipe(config);
  config.check_unused();
  EXPECT_FALSE(recipe.stages[0].loss_on_notes);
  EXPECT_TRUE(recipe.eval.computed_notes);
  auto bopo = Config::from_string(base + "text: {style: compact_state}\nstages: [{type: bopo, steps: 2, "
                                  "loss_on_notes: false, rollout: {computed_notes: true}}]", "<recipe>");
  EXPECT_FALSE(read_recipe(bopo).stages[0].loss_on_notes);
  auto plain = Config::from_string(base + "text: {style: compact_state}\nstages: [{type: sft}]", "<recipe>");
  EXPECT_FALSE(read_recipe(plain).eval.computed_notes);
  expect_error(base + "text: {style: compact}\nstages: [{type: bopo, steps: 2, rollout: {computed_notes: true}}]",
               "stages[0].rollout.computed_notes needs a text that writes notes");
}

// A model of several problems: stages[i].problems gives a problem its own preference options (as
// its own recipe sets them); every other problem keeps the stage's.
TEST(Recipe, AStageGivesAProblemItsOwnPreferenceOptions) {
  const std::string base = "output_dir: x\ndata: {config: c.yaml}\ntokenizer: {numbers: whole_ids, vocab_size: 2400}\n"
                           "text: {style: compact, problems: {cvrp: {style: compact_ranked}}}\n";
  auto config = Config::from_string(
      base + "stages: [{type: bopo, steps: 2, rollout: {computed_notes: auto}, "
             "problems: {cvrp: {infeasible_losers: true, loss_on_notes: false}}}]",
      "<recipe>");
  const auto recipe = read_recipe(config);
  config.check_unused();
  const auto& stage = recipe.stages[0];
  EXPECT_TRUE(stage.keys_of<BopoKeys>().infeasible_losers_for("cvrp"));
  EXPECT_FALSE(stage.loss_on_notes_for("cvrp"));
  EXPECT_FALSE(stage.keys_of<BopoKeys>().infeasible_losers_for("tsp"));
  EXPECT_TRUE(stage.loss_on_notes_for("tsp"));
  EXPECT_TRUE(recipe.eval.computed_notes);  // some notes are left out of the loss: evaluation writes them

  auto inherit = Config::from_string(
      base + "stages: [{type: bopo, steps: 2, infeasible_losers: true, rollout: {computed_notes: auto}, "
             "problems: {cvrp: {loss_on_notes: false}}}]",
      "<recipe>");
  EXPECT_TRUE(read_recipe(inherit).stages[0].keys_of<BopoKeys>().infeasible_losers_for("cvrp"));  // unset: the stage's value

  expect_error(base + "stages: [{type: bopo, steps: 2, problems: {cvpr: {infeasible_losers: true}}}]",
               "stages[0].problems.cvpr");
  expect_error(base + "stages: [{type: bopo, steps: 2, problems: {cvrp: true}}]",
               "stages[0].problems.cvrp must be a map");
  expect_error(base + "stages: [{type: bopo, steps: 2, problems: {tsp: {loss_on_notes: false}}}]",
               "stages[0].problems.tsp.loss_on_notes can be false only for a problem whose text writes notes");
  expect_error(base + "stages: [{type: bopo, steps: 2, rollout: {computed_notes: false}, "
                      "problems: {cvrp: {loss_on_notes: false}}}]",
               "stages[0].problems.cvrp.loss_on_notes can be false in a sampling stage only with rollout.computed_notes");
  expect_error(base + "stages: [{type: grpo, steps: 2, problems: {cvrp: {infeasible_losers: true}}}]",
               "infeasible_losers");  // a BOPO option: unknown in a GRPO stage, as the stage's own key
}

// auto: one preference stage and evaluation for every problem's model, computing the notes of the
// texts that have them.
TEST(Recipe, AutoComputedNotesFollowTheText) {
  const std::string base = "output_dir: x\ndata: {config: c.yaml}\ntokenizer: {numbers: whole_ids, vocab_size: 2400}\n";
  const std::string stages = "\nstages: [{type: grpo, steps: 2, rollout: {computed_notes: auto}}, "
                             "{type: bopo, steps: 2, rollout: {computed_notes: auto, grammar: false}}]\neval: {computed_notes: auto}";
  auto ranked = Config::from_string(base + "text: {style: compact_ranked}" + stages, "<recipe>");
  const auto with_notes = read_recipe(ranked);
  ranked.check_unused();
  EXPECT_TRUE(with_notes.stages[0].rollout.computed_notes);
  EXPECT_TRUE(with_notes.stages[1].rollout.computed_notes);  // the notes are the text's, grammar or not
  EXPECT_TRUE(with_notes.eval.computed_notes);
  auto compact = Config::from_string(base + "text: {style: compact}" + stages, "<recipe>");
  const auto without = read_recipe(compact);
  EXPECT_FALSE(without.stages[0].rollout.computed_notes);
  EXPECT_FALSE(without.eval.computed_notes);
  expect_error(base + "stages: [{type: bopo, steps: 2, rollout: {computed_notes: often}}]",
               "expected true, false or auto");
}

// text.problems: each problem of a multi-problem model in its own style, defaulting to text's.
TEST(Recipe, EachProblemMayHaveItsOwnTextStyle) {
  const std::string base = "output_dir: x\ndata: {config: c.yaml}\ntokenizer: {numbers: whole_ids, vocab_size: 2400}\n"
                           "stages: [{type: sft}]\n";
  auto config = Config::from_string(base + "text: {style: compact, candidates: 4, problems: "
                                           "{pfsp: {style: compact_insert, candidates: 0}, op: {style: compact_ranked}, jssp: {candidates: 0}}}",
                                    "<recipe>");
  const auto recipe = read_recipe(config);
  config.check_unused();
  EXPECT_EQ(formats::describe(recipe.text_style),
            "compact, 4 candidates; jssp: compact; op: compact_ranked, 4 candidates; pfsp: compact_insert");
  expect_error(base + "text: {style: compact, problems: {tps: {style: compact}}}", "text.problems.tps: unknown problem 'tps'");
  expect_error(base + "text: {style: compact, problems: {op: {style: ranked}}}", "text.problems.op: unknown text style 'ranked'");
  expect_error(base + "text: {style: compact, problems: {op: compact_ranked}}", "text.problems.op must be a map");
  expect_error(base + "text: {style: compact, problems: {op: {styl: compact_ranked}}}", "styl");
  // A compact text anywhere needs whole-number pieces.
  expect_error("output_dir: x\ndata: {config: c.yaml}\nstages: [{type: sft}]\ntext: {problems: {op: {style: compact}}}",
               "tokenizer.numbers must be whole_ids with text.style: compact");
}

TEST(Recipe, BatchesFromOneDatasetWithWeights) {
  const std::string base = "output_dir: x\nstages: [{type: sft}]\n";
  auto config = Config::from_string(base + "data: {config: [a.yaml, b.yaml], batches: by_dataset, weights: [3, 1]}",
                                    "<recipe>");
  const auto recipe = read_recipe(config);
  config.check_unused();
  EXPECT_EQ(recipe.data.batches, "by_dataset");
  EXPECT_EQ(recipe.data.weights, (std::vector<std::int64_t>{3, 1}));
  auto plain = Config::from_string(base + "data: {config: a.yaml}", "<recipe>");
  EXPECT_EQ(read_recipe(plain).data.batches, "mixed");
  expect_error(base + "data: {config: [a.yaml, b.yaml], batches: per_problem}", "data.batches must be mixed");
  expect_error(base + "data: {config: [a.yaml, b.yaml], weights: [3, 1]}", "data.weights needs data.batches: by_dataset");
  expect_error(base + "data: {config: [a.yaml, b.yaml], batches: by_dataset, weights: [3]}",
               "data.weights must have one entry per data.config (2)");
  expect_error(base + "data: {config: [a.yaml, b.yaml], batches: by_dataset, weights: [0, 0]}", "positive weight");
  expect_error(base + "data: {config: [a.yaml, b.yaml], batches: by_dataset, weights: [2, -1]}", "must not be negative");
  // A stage may have its own shares (a preference stage giving each problem the same).
  auto staged = Config::from_string("output_dir: x\ndata: {config: [a.yaml, b.yaml], batches: by_dataset, weights: [3, 1]}\n"
                                    "stages: [{type: sft}, {type: bopo, steps: 2, weights: [1, 1]}]", "<recipe>");
  const auto two = read_recipe(staged);
  staged.check_unused();
  EXPECT_TRUE(two.stages[0].weights.empty());
  EXPECT_EQ(two.stages[1].weights, (std::vector<std::int64_t>{1, 1}));
  expect_error("output_dir: x\ndata: {config: [a.yaml, b.yaml]}\nstages: [{type: sft, weights: [1, 1]}]",
               "stages[0].weights needs data.batches: by_dataset");
}

TEST(Recipe, NumberTokensAndTheirStartingEmbedding) {
  auto config = Config::from_string("output_dir: x\ndata: {config: c.yaml}\nstages: [{type: sft}]\n"
                                    "tokenizer: {numbers: whole}\ninit: {number_embedding: fourier}", "<recipe>");
  const auto recipe = read_recipe(config);
  config.check_unused();
  EXPECT_EQ(recipe.tokenizer.numbers, "whole");
  EXPECT_EQ(recipe.number_embedding, "fourier");
}

TEST(Recipe, DistributedSection) {
  auto config = Config::from_string("output_dir: x\ndata: {config: c.yaml}\nstages: [{type: sft}]\n"
                                    "distributed: {backend: gloo, timeout_s: 60, bucket_mb: 4}",
                                    "<recipe>");
  const auto recipe = read_recipe(config);
  config.check_unused();
  EXPECT_EQ(recipe.distributed.backend, "gloo");
  EXPECT_DOUBLE_EQ(recipe.distributed.timeout_s, 60.0);
  EXPECT_DOUBLE_EQ(recipe.distributed.bucket_mb, 4.0);
  auto defaults = Config::from_string("output_dir: x\ndata: {config: c.yaml}\nstages: [{type: sft}]", "<recipe>");
  EXPECT_EQ(read_recipe(defaults).distributed.backend, "auto");
}

}  // namespace
}  // namespace falcon::recipe
