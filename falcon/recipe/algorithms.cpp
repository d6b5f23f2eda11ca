#include "falcon/recipe/algorithms.h"

#include "falcon/core/error.h"

namespace falcon::recipe {
namespace {

// A key reader as the registry holds it: its keys as the variant.
template <auto Read>
AlgorithmKeys read_as(Config& config, const std::string& base, const StageSpec& stage) {
  return Read(config, base, stage);
}

}  // namespace

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> all = {
      {StageKind::kSft, "sft", false, SftKeys{}, read_as<read_sft_keys>},
      {StageKind::kBopo, "bopo", true, BopoKeys{}, read_as<read_bopo_keys>},
      {StageKind::kGrpo, "grpo", true, GrpoKeys{}, read_as<read_grpo_keys>},
      {StageKind::kFoarl, "foarl", true, GrpoKeys{}, read_as<read_grpo_keys>},
      {StageKind::kDpo, "dpo", true, DpoKeys{}, read_as<read_dpo_keys>},
  };
  return all;
}

const Algorithm& algorithm(StageKind kind) {
  for (const auto& a : algorithms())
    if (a.kind == kind) return a;
  throw Error("stage kind " + std::to_string(static_cast<int>(kind)) + " has no line in recipe/algorithms.cpp");
}

bool samples_policy(StageKind kind) { return algorithm(kind).samples_policy; }

std::string to_string(StageKind kind) { return algorithm(kind).name; }

const Algorithm& algorithm_named(const std::string& name, const std::string& where) {
  std::string names;
  for (const auto& a : algorithms()) {
    if (a.name == name) return a;
    names += (names.empty() ? "" : ", ") + a.name;
  }
  throw Error(where + ": unknown stage type '" + name + "' (use " + names + ")");
}

}  // namespace falcon::recipe
