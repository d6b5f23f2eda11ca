#include "falcon/recipe/bopo_keys.h"

#include "falcon/recipe/key_checks.h"
#include "falcon/recipe/stage.h"

namespace falcon::recipe {

bool BopoKeys::infeasible_losers_for(std::string_view problem) const {
  for (const auto& [name, value] : infeasible_losers_by_problem)
    if (name == problem) return value;
  return infeasible_losers;
}

BopoKeys read_bopo_keys(Config& c, const std::string& base, const StageSpec& stage) {
  BopoKeys k;
  k.beta = c.get_double(base + "beta", k.beta);
  require(k.beta > 0, c, base + "beta", "must be positive");
  k.reference = c.get_string(base + "reference", k.reference);
  require(k.reference == "none" || k.reference == "adapters", c, base + "reference",
          "must be 'none' (the paper: s = log pi(y*) - log pi(y_i)) or 'adapters' (margin against adapters disabled)");
  require(k.reference != "adapters" || stage.lora.rank > 0, c, base + "lora.rank",
          "must be > 0: the reference policy is the model with adapters disabled");
  k.length_normalise = c.get_bool(base + "length_normalise", k.length_normalise);
  k.sft_weight = c.get_double(base + "sft_weight", k.sft_weight);
  require(k.sft_weight >= 0, c, base + "sft_weight", "must be >= 0");
  k.anchor_on_label = c.get_bool(base + "anchor_on_label", k.anchor_on_label);
  k.infeasible_losers = c.get_bool(base + "infeasible_losers", k.infeasible_losers);
  // The problem names and maps were checked with the stage's common keys (stage.h).
  for (const auto& problem : c.keys(base + "problems"))
    k.infeasible_losers_by_problem.emplace_back(
        problem, c.get_bool(base + "problems." + problem + ".infeasible_losers", k.infeasible_losers));
  return k;
}

}  // namespace falcon::recipe
