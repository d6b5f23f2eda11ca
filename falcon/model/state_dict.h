#pragma once
// A module's tensors by full name, and strict loading of named tensors (a safetensors file,
// a HF checkpoint, a training checkpoint) into a module. Generic over torch::nn::Module.
#include <string>
#include <vector>

#include "falcon/core/torch/shim.h"
#include "falcon/model/safetensors.h"

namespace falcon::model {

// Parameters and buffers by their full dotted names, detached views of the module's own
// storage (no copy; write them before changing the module).
TensorMap state_dict(const torch::nn::Module& module);

struct LoadOptions {
  // Names in the file that may be absent from the module and are skipped. Glob patterns ('*'
  // matches any run of characters, dots included). The default drops the RoPE tables that old HF
  // Llama checkpoints store as buffers.
  std::vector<std::string> ignore_unexpected = {"*.rotary_emb.inv_freq"};
  // Module names that the file may lack (left as they are), e.g. "*.lora_A.weight" when loading a
  // base checkpoint into a model that already has adapters.
  std::vector<std::string> allow_missing;
  // Names the source in error messages ("checkpoints/step_100/model.safetensors").
  std::string source = "tensors";
  // The last line of the error: what to do about a mismatch.
  std::string hint =
      "The file was written for a different model: check that the model settings (config.json or the model "
      "section) match it, or list names to skip in LoadOptions (ignore_unexpected / allow_missing).";
};

struct LoadReport {
  std::vector<std::string> ignored;  // file names skipped by ignore_unexpected
  std::vector<std::string> missing;  // module names allowed missing and left untouched
};

// Checks `tensors` against `expected` (names, shapes, convertible dtypes; `expected` may hold
// meta tensors) without copying. Throws the one error described below.
LoadReport check_tensors(const TensorMap& expected, const TensorMap& tensors, const LoadOptions& options = {});

// Copies `tensors` into `targets` (tensors that share storage with a model's), after check_tensors.
LoadReport load_into(const TensorMap& targets, const TensorMap& tensors, const LoadOptions& options = {});

// Copies `tensors` into the module's parameters and buffers (converting floating dtypes, e.g. a
// bfloat16 file into a float32 model, and moving to the module's device), under NoGradGuard so
// requires_grad is kept. All checks run before anything is copied: names missing from the file,
// names the module does not have, shape mismatches and non-convertible dtypes give ONE
// falcon::Error listing the first offenders with expected / actual shapes and what to do.
LoadReport load_state_dict(torch::nn::Module& module, const TensorMap& tensors, const LoadOptions& options = {});

// '*' glob match over the whole name.
bool glob_match(const std::string& pattern, const std::string& name);

// "[2, 64]"
std::string shape_text(torch::IntArrayRef shape);

}  // namespace falcon::model
