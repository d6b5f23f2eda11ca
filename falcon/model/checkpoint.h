#pragma once
// Training checkpoints: one directory per step under a root,
//
//   <root>/step_<N>/model.safetensors       all parameters and buffers, or only the trainable ones
//                                           (LoRA adapters when the base is frozen)
//                  /optimizer.safetensors   AdamW state by parameter name (adamw_state.h)
//                  /trainer_state.json      the trainer's own state (step, epoch, data cursor, RNG), opaque here
//                  /config.yaml             the resolved config the run used
//                  /checkpoint.json         what the directory holds (format, step, weights kind, files)
//   <root>/latest                           "step_<N>": the newest complete checkpoint
//
// Written atomically: everything goes to step_<N>.tmp-<pid>/, is fsynced, and the directory is
// renamed to step_<N>/; only then is `latest` replaced (itself atomically). A crash leaves either
// the previous checkpoint or the new one, plus at most a .tmp directory that loading ignores.
// Loading validates everything (a truncated or missing file, a missing optimizer tensor, a shape
// that differs from the model, a config that differs from the run's) with one falcon::Error
// naming the file and the tensor or field.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "falcon/core/torch/shim.h"

namespace falcon::model {

enum class CheckpointWeights {
  kAll,        // every parameter and buffer
  kTrainable,  // parameters with requires_grad (the adapters of a frozen base); the base is
               // loaded separately (e.g. from `base_model`) before load_checkpoint
};

struct CheckpointData {
  std::int64_t step = 0;
  nlohmann::json trainer_state = nlohmann::json::object();
  std::string config_yaml;  // resolved config text
};

struct CheckpointSaveOptions {
  CheckpointWeights weights = CheckpointWeights::kAll;
  int keep_last = 0;        // > 0: delete all but the newest keep_last step directories
  std::string base_model;   // recorded for kTrainable: where the frozen base weights come from
};

// Writes <root>/step_<data.step>/ (replacing one of the same step) and points `latest` at it.
// `optimizer` may be null (no optimizer.safetensors). Returns the checkpoint directory. Also
// removes .tmp / .old directories left by processes that no longer run.
std::string save_checkpoint(const std::string& root, const CheckpointData& data, const torch::nn::Module& module,
                            torch::optim::AdamW* optimizer, const CheckpointSaveOptions& options = {});

struct CheckpointLoadOptions {
  // When not empty: the stored config.yaml must equal it, except for these paths (Config's
  // to_yaml_without syntax, e.g. "checkpoint.keep_last", "distributed.*"); a difference names
  // the first differing key.
  std::string expected_config_yaml;
  std::vector<std::string> ignored_config_paths;
  // When set, the stored config as the current reader resolves it (path names it in errors), so
  // that a key added after the checkpoint was written compares at its default, not as a change.
  std::function<std::string(const std::string& stored_yaml, const std::string& path)> with_defaults;
};

struct LoadedCheckpoint {
  std::string dir;  // the step directory that was loaded
  CheckpointData data;
  CheckpointWeights weights = CheckpointWeights::kAll;
  std::string base_model;
};

// `dir_or_root` is a step directory, or a root: then `latest` (or, without it, the highest
// complete step_<N>) is loaded. Restores the module's tensors (kTrainable: only the trainable
// ones, which must all be present) and, when `optimizer` is given, its exact AdamW state.
// Checks everything before changing the module or the optimizer.
LoadedCheckpoint load_checkpoint(const std::string& dir_or_root, torch::nn::Module& module,
                                 torch::optim::AdamW* optimizer, const CheckpointLoadOptions& options = {});

// The step directory load_checkpoint would load from `dir_or_root`, or "" when a root holds no
// checkpoint yet (for --resume on a fresh run). Throws when `latest` names a missing directory.
std::string find_checkpoint(const std::string& dir_or_root);

// Complete step directories under root, oldest first.
std::vector<std::string> list_checkpoints(const std::string& root);

}  // namespace falcon::model
