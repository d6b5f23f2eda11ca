#pragma once
// A training recipe: one YAML file, sections model, tokenizer, data, stages, optimizer,
// checkpoint, logging, eval, distributed, seed, output_dir (docs/training.md lists every key).
// Reading is strict: unknown keys, wrong types and impossible values are errors naming the key
// path; every default that was used is recorded so the resolved YAML can be written next to
// each checkpoint.
#include <cstdint>
#include <string>
#include <vector>

#include "falcon/core/config.h"
#include "falcon/model/config/model_config.h"
#include "falcon/formats/text_style.h"
#include "falcon/recipe/stage.h"

namespace falcon::recipe {

struct TokenizerSpec {
  std::string path;               // an existing tokenizer.model; empty = train one into output_dir
  int vocab_size = 2000;
  std::string numbers = "plain";  // plain | split_digits | whole | whole_ids
};

struct TrainingDataSpec {
  // falcon_datagen YAMLs (configs/data/<p>.yaml); several = one model on several problems, their
  // training examples interleaved.
  std::vector<std::string> configs;
  std::vector<std::string> overrides;  // key=value applied to each
  std::string train_split = "train";
  std::string eval_split = "test";
  int max_prompt_tokens = 1024;        // longer prompts are skipped (counted, reported)
  bool augment = false;                // SFT sees each example through a random symmetry of its problem
  // mixed: every batch draws from all datasets; by_dataset: each batch from one dataset (its
  // texts pad to each other's length), `weights[d]` batches of dataset d in every sum(weights),
  // or with no weights each dataset's share of the examples (data_order.h).
  std::string batches = "mixed";
  std::vector<std::int64_t> weights;
  // > 0: batches of about one length (LengthBucketOrder), sorted within windows of this many
  // batches, so they pad little; 0: the order as it comes.
  int length_buckets = 0;
};

// eval: what falcon_train evaluates after each stage (falcon_eval has its own config).
struct StageEvalSpec {
  int instances = 50;     // from data.eval_split; 0 = skip
  int samples = 8;        // best of N (repair on)
  double temperature = 0.7;
  // The decoder writes the echo text's notes; by default on when a stage leaves them out of its loss.
  bool computed_notes = false;
};

// How the ranks of a data-parallel run talk (the ranks themselves come from the environment or
// falcon_train --nproc; docs/training.md).
struct DistributedSpec {
  std::string backend = "auto";  // auto (NCCL for CUDA when built with it, else Gloo) | gloo | nccl
  double timeout_s = 1800;       // rendezvous, every collective, and the other ranks' wait for
                                 // rank 0's data generation and tokenizer training
  double bucket_mb = 25;         // gradient all-reduce bucket size
};

struct Recipe {
  std::string source;       // the YAML file
  std::string output_dir;
  std::uint64_t seed = 1;
  TokenizerSpec tokenizer;
  formats::TextStyle text_style;  // text.style, text.candidates: what the model reads and writes
  TrainingDataSpec data;
  std::vector<StageSpec> stages;
  double adam_beta1 = 0.9, adam_beta2 = 0.999, adam_eps = 1e-8;
  std::int64_t checkpoint_every = 0;  // optimizer steps; 0 = only at the end of each stage
  int keep_last = 2;
  int log_every = 10;
  StageEvalSpec eval;
  int threads = 0;          // intra-op threads, 0 = all cores
  // Start from another run's checkpoint (weights only) at stage `start_stage`: e.g. several BOPO
  // variants from one SFT checkpoint. The checkpoint must have the model shape of the stage
  // before start_stage (same model section, same LoRA settings). It may also be a model
  // directory (is_model_directory: a release in models/, a run's final/), whose tokenizer.model
  // is then tokenizer.path's default, so training continues from the latest release.
  std::string init_from;
  int start_stage = 0;
  // init_from may come from a run of another text style (a curriculum: a compact TSP model as the
  // start of an OP model that echoes its budget); otherwise a differing style is refused.
  bool init_other_text_style = false;
  // How a fresh model's number-token embeddings start: "random" (HF's normal(0, 0.02)) or
  // "fourier" (falcon/model/number_embedding.h). Ignored when weights come from a checkpoint.
  std::string number_embedding = "random";
  std::string device = "cpu";  // cpu | cuda | cuda:N ("cuda" with several ranks: cuda:LOCAL_RANK)
  // "bf16": the teacher-forced passes of every stage run their matmuls in bfloat16 under autocast
  // (weights, gradients and optimizer stay fp32); "none": fp32 throughout. The YAML's "auto" is
  // read as bf16 on CUDA and on CPUs with native bf16 (cpu_has_native_bf16), else none.
  std::string mixed_precision = "none";
  DistributedSpec distributed;
};

// Reads every section except `model` (the model reader takes that one); the caller runs
// config.check_unused() once both have read. Throws falcon::Error naming the key path.
Recipe read_recipe(Config& config);

// A Hugging Face model directory as falcon_train's final/ and models/<problem>/ hold it
// (config.json and tokenizer.model or tokenizer.json, no checkpoint.json), as opposed to a
// training checkpoint.
bool is_model_directory(const std::string& dir);
// The model's embedding rows: the tokenizer's, or more when init.checkpoint is a Hugging Face model
// directory whose embedding is padded past its tokenizer (Qwen2.5-7B: 152,064 rows for 151,665
// tokens), so its weights load.
std::int64_t model_vocab_size(const Recipe& recipe, std::int64_t tokenizer_vocab_size);

// All that falcon_train reads of its YAML: the recipe, then the model section (presets
// expanded), then Config::check_unused. Throws falcon::Error naming the file and key.
struct TrainingConfig {
  Recipe recipe;
  model::ModelConfig model;
};
TrainingConfig read_training_config(Config& config);

}  // namespace falcon::recipe
