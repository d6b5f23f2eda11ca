#pragma once
// Hugging Face checkpoint directories of Llama-family models:
//
//   config.json                         model_config_from_hf_json
//   model.safetensors                   all weights, or
//   model.safetensors.index.json        {"metadata": {...}, "weight_map": {name: shard file}}
//   model-00001-of-00002.safetensors    + the shards it names
//   tokenizer.model                     SentencePiece (optional; falcon::text::Tokenizer::load)
//
// Everything in the directory is untrusted: every inconsistency is one falcon::Error naming the
// file and the tensor or field.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "falcon/model/config/model_config.h"
#include "falcon/model/safetensors.h"

namespace falcon::model {

struct HfCheckpoint {
  ModelConfig config;
  TensorMap weights;                 // HF names, the files' dtypes, on the CPU
  std::string tokenizer_model_path;  // <dir>/tokenizer.model, or "" when absent
};

// Reads config.json and the weights, and checks the weights' names and shapes against the
// config (hf_parameter_shapes). Drops "*.rotary_emb.inv_freq" (old HF files) and, for tied
// models, an lm_head.weight that equals the embedding (an error when it differs).
HfCheckpoint read_hf_checkpoint(const std::string& dir);

struct HfWriteOptions {
  std::uint64_t max_shard_bytes = 0;  // 0: one model.safetensors; else shards of at most this (a
                                      // larger tensor gets a shard of its own) + the index
  std::string tokenizer_model;        // copied to <dir>/tokenizer.model when set
};

// Writes config.json and the weights (any device; written in their dtypes) in HF's layout, each
// file atomically. A new directory is written as <dir>.tmp-<pid> and renamed into place, so it
// appears complete or not at all; in an existing one, weights go first, config.json last, and
// files of the other layout (a stale index and shards, or model.safetensors) are removed. The
// weights must be exactly hf_parameter_shapes(config) (tied: lm_head.weight may be given when it
// equals the embedding; it is not written, as HF does).
void write_hf_checkpoint(const std::string& dir, const ModelConfig& config, const TensorMap& weights,
                         const HfWriteOptions& options = {});

// The names and shapes of a checkpoint of `config` (transformer.h's list), in name order.
std::map<std::string, std::vector<std::int64_t>> hf_parameter_shapes(const ModelConfig& config);

}  // namespace falcon::model
