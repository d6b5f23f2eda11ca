#pragma once
// The training algorithms a stage may run (stages[i].type), one registry line each
// (algorithms.cpp): the name, whether it trains on samples of the policy, the defaults and the
// reader of its own keys. Their batches and losses register in train/algorithms.h.
#include <string>
#include <vector>

#include "falcon/core/config.h"
#include "falcon/recipe/stage.h"

namespace falcon::recipe {

struct Algorithm {
  StageKind kind;
  std::string name;     // stages[i].type
  bool samples_policy;  // trains on the policy's own samples: rollout keys, sampling defaults
  AlgorithmKeys defaults;
  AlgorithmKeys (*read_keys)(Config& config, const std::string& base, const StageSpec& stage);
};

const std::vector<Algorithm>& algorithms();
const Algorithm& algorithm(StageKind kind);
// Throws "where: unknown stage type 'x' (use sft, bopo, ...)".
const Algorithm& algorithm_named(const std::string& name, const std::string& where);

}  // namespace falcon::recipe
