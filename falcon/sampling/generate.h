#pragma once
// Batched decoding over the model's KV cache: B prompts, N samples each (the samples share
// their prompt's cache), a sampler chain per row, a maximum-length guard.
//
// Reproducible per sample: row r draws from Rng::for_item(seed, sample_key), sample_key =
// prompt_keys[r / N] * S + first_sample + r % N with S = key_stride (default N), so a sample's
// text does not depend on which other prompts share its batch (prompt_keys default to 0..B-1;
// callers pass instance ids). Drawing one prompt's samples in rounds (adaptive Best-of-N) with
// first_sample = samples drawn so far and a fixed stride S >= every sample count gives sample k
// the same stream whatever the round sizes.
#include <cstdint>
#include <vector>

#include "falcon/model/transformer.h"
#include "falcon/sampling/sampler_step.h"

namespace falcon::sampling {

struct GenerateOptions {
  int samples_per_prompt = 1;   // N
  int max_new_tokens = 256;     // guard: a row that has not emitted EOS by then is truncated
  bool greedy = false;          // argmax after the chain instead of drawing from it
  std::uint64_t seed = 0;
  std::vector<std::uint64_t> prompt_keys;  // optional, one per prompt: stable sample streams
  std::uint64_t first_sample = 0;          // number of this call's first sample of each prompt
  std::uint64_t key_stride = 0;            // S above; 0 = samples_per_prompt
  int eos_id = 3;
  int pad_id = 0;
  // Jump-forward: a token the mask steps leave alone (a computed note, a keyword) is accepted
  // without waiting for the model, and each row's run of such tokens goes through the model in
  // one decode call with the token picked before it. The same tokens, random draws and
  // log-probabilities as one token a call (up to float rounding), in far fewer calls when the
  // grammar writes most of the text.
  bool jump_forward = true;
};

enum class StopReason { kEos, kMaxLength, kDeadEnd };  // dead end: the chain removed every token

struct GeneratedSequence {
  int prompt = 0;                // index into the prompts
  int sample = 0;                // 0..N-1
  std::vector<int> tokens;       // without the EOS
  StopReason stop = StopReason::kMaxLength;
  double logprob = 0.0;          // sum of log p(token) under the model alone (no chain), EOS included
};

struct GenerateStats {
  double model_seconds = 0;      // prefill + decode forward passes
  double mask_seconds = 0;       // steps with is_mask()
  double sample_seconds = 0;     // the other steps and the picker
  std::int64_t generated_tokens = 0;
  std::int64_t forced_tokens = 0;  // of those, accepted without a pick (jump_forward)
  std::int64_t steps = 0;          // rounds of picks: the prefill's logits, then one per decode call
};

// The usual chain: the mask steps first (so temperature and nucleus act on the constrained
// distribution), then temperature, top-k, top-p. temperature 0 means greedy: set
// GenerateOptions::greedy (this chain then has no temperature step).
struct SamplingConfig {
  double temperature = 1.0;
  int top_k = 0;       // 0 = off
  double top_p = 1.0;  // 1 = off
};
SamplerChain make_chain(const SamplingConfig& config, SamplerChain masks = {});

// prompts: token ids, each non-empty. Throws falcon::Error when a prompt plus max_new_tokens
// exceeds the model's max_position_embeddings.
std::vector<GeneratedSequence> generate(model::CausalLm& model, const std::vector<std::vector<int>>& prompts,
                                        SamplerChain& chain, const GenerateOptions& options,
                                        GenerateStats* stats = nullptr);

}  // namespace falcon::sampling
