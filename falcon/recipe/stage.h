#pragma once
// One stage of a training recipe (stages[i]): the keys every stage has (length, batch, optimizer,
// schedule, LoRA, rollouts, notes) and the keys of its algorithm (sft_keys.h, bopo_keys.h,
// grpo_keys.h, dpo_keys.h; the registry: algorithms.h). docs/training.md lists every key.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "falcon/core/config.h"
#include "falcon/formats/text_style.h"
#include "falcon/model/config/lora_config.h"
#include "falcon/recipe/bopo_keys.h"
#include "falcon/recipe/dpo_keys.h"
#include "falcon/recipe/grpo_keys.h"
#include "falcon/recipe/lr_schedule.h"
#include "falcon/recipe/sft_keys.h"

namespace falcon::recipe {

enum class StageKind { kSft, kBopo, kGrpo, kFoarl, kDpo };
std::string to_string(StageKind kind);  // stages[i].type
bool samples_policy(StageKind kind);    // trains on the policy's own samples (all but SFT)

// A stage's own keys: FOARL's are GRPO's.
using AlgorithmKeys = std::variant<SftKeys, BopoKeys, GrpoKeys, DpoKeys>;

// How a stage samples from the current policy (BOPO, GRPO, FOARL, DPO).
struct RolloutSpec {
  int samples_per_instance = 8;   // K
  double temperature = 1.0;
  int top_k = 0;
  double top_p = 1.0;
  bool grammar = true;            // grammar-constrained decoding
  bool semantic_mask = false;     // beyond the paper: visited / capacity / budget / adjacency masks
  bool computed_notes = false;    // beyond the paper: the decoder writes compact_echo's notes
  bool repair = false;            // repair infeasible samples before scoring (they then count as feasible)
  int max_new_tokens = 0;         // 0 = sized from the instance (policy::output_budget)
};

// The member initializers are every common key's default for an SFT stage, written only here;
// stage_defaults(kind) gives a sampling stage's few differences.
struct StageSpec {
  std::string name;
  StageKind kind = StageKind::kSft;
  std::int64_t steps = 0;         // optimizer steps; 0 = from epochs (SFT)
  int batch_size = 16;            // SFT: sequences; sampling stages: instances per step
  int grad_accum = 1;
  LrSchedule lr;                  // peak 1e-3, warmup 0, cosine, min ratio 0.1 (total set at run time)
  double weight_decay = 0.0;
  double grad_clip = 1.0;         // 0 = off
  model::LoraConfig lora;         // rank 0 = full fine-tuning
  RolloutSpec rollout;
  // With data.batches: by_dataset, this stage's shares of the datasets (empty = data.weights).
  std::vector<std::int64_t> weights;
  // Beyond the paper: false leaves the tokens of the echo text's notes out of the loss (SFT: the
  // model is then decoded with computed notes, which write them; sampling stages: out of each
  // sample's log-probability, as its rollouts were decoded with computed notes).
  bool loss_on_notes = true;
  // stages[i].problems.<p>.loss_on_notes: a model of several problems gives a problem its own
  // value, as that problem's own recipe sets it; the rest take the stage's.
  std::vector<std::pair<std::string, bool>> loss_on_notes_by_problem;
  bool loss_on_notes_for(std::string_view problem) const;
  // The keys of the stage's algorithm, the alternative of its kind.
  AlgorithmKeys keys = SftKeys{};
  template <class Keys>
  const Keys& keys_of() const {
    return std::get<Keys>(keys);
  }
  template <class Keys>
  Keys& keys_of() {
    return std::get<Keys>(keys);
  }
};

// Every key's default for a stage of this kind: an SFT stage is StageSpec's initializers; BOPO,
// GRPO, FOARL and DPO sample from the policy, and take batch_size 8 (instances), lr 1e-5 and LoRA
// adapters of rank 16 (alpha 16); the algorithm's keys are its struct's initializers. read_stage
// starts from it; docs/training.md's stage tables say the same (tests/recipe/recipe_docs_test.cpp
// holds them to it).
StageSpec stage_defaults(StageKind kind);

// stages[index] of the recipe, its text style given (for the notes' checks). Throws
// falcon::Error naming the key path.
StageSpec read_stage(Config& config, int index, const formats::TextStyle& style);

}  // namespace falcon::recipe
