#pragma once
// falcon_train's work: tokenizer, data, model, then each stage of the recipe in order (SFT,
// BOPO, GRPO, FOARL, DPO), with checkpoints, resume, metrics and a short evaluation after each
// stage so the summary shows what every stage bought.
//
// Output directory:
//   tokenizer.model              trained from the dataset unless tokenizer.path names one
//   metrics.jsonl                one JSON object per logged step and per evaluation
//   checkpoints/step_<N>/...     falcon/model/checkpoint.h, with config.yaml (the resolved recipe)
//   final/                       Hugging Face layout (config.json, model.safetensors,
//                                tokenizer.model) with adapters merged; final/adapter/ holds the
//                                last LoRA adapters in PEFT's layout
//   summary.json                 per stage: steps, time, loss, evaluation
// (all written by rank 0 alone in a data-parallel run)
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "falcon/core/config.h"
#include "falcon/train/evaluate.h"
#include "falcon/recipe/recipe.h"

namespace falcon::train {

struct TrainOptions {
  bool resume = false;         // continue from output_dir/checkpoints (bit-identical on CPU)
  bool overwrite = false;      // start from step 0 in an output_dir that holds an earlier run, removing it
  bool progress = true;
  std::string tokenizer_tool;  // falcon_tokenizer, spawned to train a tokenizer (no LibTorch in it)
  std::int64_t stop_after_steps = 0;  // > 0: stop (after checkpointing) once this many optimizer
                                      // steps ran in this process — for tests of resume
  // Asked after each step; true: checkpoint and stop (falcon_train: a SIGINT or SIGTERM). In a
  // data-parallel run the ranks stop together, at the step where any one of them was asked.
  std::function<bool()> stop_requested;
};

struct StageResult {
  std::string name;
  recipe::StageKind kind = recipe::StageKind::kSft;
  std::int64_t steps = 0;
  double seconds = 0.0;
  double last_loss = 0.0;
  std::int64_t skipped_groups = 0;
  std::int64_t tokens = 0;
  PolicyEval eval;
};

struct TrainResult {
  std::vector<StageResult> stages;  // global figures, the same on every rank
  std::string final_dir;
  bool stopped_early = false;  // stop_after_steps or stop_requested ended the run
  std::string last_checkpoint;  // when stopped early: the checkpoint it wrote
  int rank = 0;                // this process in a data-parallel run; rank 0 wrote the files
  int world_size = 1;
};

// Data parallel when the environment describes several ranks (RANK, WORLD_SIZE, MASTER_ADDR,
// MASTER_PORT, as set by falcon_train --nproc, torchrun or Slurm): every rank calls this with the
// same recipe, trains on its slice of each global batch, and only rank 0 writes files and prints
// progress; the updates are those of one process on the whole batch (up to rounding).
TrainResult run_training(Config& config, const TrainOptions& options);

// Reads the recipe and model sections (strictly) and writes the resolved YAML, defaults included.
void print_resolved_recipe(Config& config, std::ostream& out);

}  // namespace falcon::train
