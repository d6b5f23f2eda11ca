#pragma once
// Sampling from the current policy for training (BOPO, GRPO, FOARL, DPO) and scoring every
// sample: K samples per instance through the sampler chain (grammar / semantic masks from a
// factory, then temperature, top-k, top-p), decoded to text, parsed, optionally repaired, scored.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "falcon/model/transformer.h"
#include "falcon/sampling/generate.h"
#include "falcon/scoring/sample_outcome.h"
#include "falcon/text/tokenizer.h"

namespace falcon::policy {

struct RolloutItem {
  const problems::Problem* problem = nullptr;
  std::shared_ptr<const problems::Instance> instance;
  std::vector<int> prompt;                    // BOS + prompt tokens
  std::optional<double> reference_objective;  // the label's objective, when known
  std::vector<int> reference_tokens;          // the label's solution tokens + EOS, when known
  int max_new_tokens = 256;
  std::uint64_t key = 0;                      // stable sample streams (instance id)
};

struct RolloutOptions {
  int samples_per_item = 8;
  sampling::SamplingConfig sampling;
  bool greedy = false;
  bool repair = false;          // repair infeasible samples; training then uses the repaired text
  std::uint64_t seed = 0;
  // Sample numbering for items sampled in rounds (generate.h): sample k of an item draws from
  // the same stream whatever the round sizes. Defaults: one round.
  std::uint64_t first_sample = 0;
  std::uint64_t key_stride = 0;
};

struct RolloutSample {
  std::vector<int> tokens;      // what the policy generated (no EOS)
  sampling::StopReason stop = sampling::StopReason::kMaxLength;
  std::string text;
  scoring::SampleOutcome outcome;
  std::vector<int> train_tokens;  // the sequence a preference stage scores: delivered_tokens()
};

// The tokens a preference stage scores for one sample: what the pipeline delivered, ended by EOS.
//  - a sentence of the grammar that the model ended itself: its own tokens + EOS;
//  - a feasible solution the model did not write as such (repair changed it, or the lenient
//    parser salvaged it from a truncated or malformed text): that solution's text re-encoded + EOS;
//  - anything else (infeasible, never a winner): the generated tokens, + EOS when it ended.
std::vector<int> delivered_tokens(const RolloutSample& sample, const RolloutItem& item, const text::Tokenizer& tokenizer);

// Builds the mask steps for one batch (row r = sample r % K of items[r / K]); empty = no masks.
using MaskFactory = std::function<sampling::SamplerChain(const std::vector<RolloutItem>& items, int samples_per_item)>;

// Returns samples grouped per item: result[i][k].
std::vector<std::vector<RolloutSample>> rollout(model::CausalLm& model, const text::Tokenizer& tokenizer,
                                                const std::vector<RolloutItem>& items, const RolloutOptions& options,
                                                const MaskFactory& masks, sampling::GenerateStats* stats = nullptr);

// Concatenated token bytes (exactly the text the grammar saw).
std::string detokenize(const text::Tokenizer& tokenizer, const std::vector<int>& tokens);

}  // namespace falcon::policy
