#include "falcon/recipe/grpo_keys.h"

#include "falcon/recipe/key_checks.h"
#include "falcon/recipe/stage.h"

namespace falcon::recipe {

GrpoKeys read_grpo_keys(Config& c, const std::string& base, const StageSpec& stage) {
  GrpoKeys k;
  k.kl_coef = c.get_double(base + "kl_coef", k.kl_coef);
  require(k.kl_coef >= 0, c, base + "kl_coef", "must be >= 0");
  require(k.kl_coef == 0 || stage.lora.rank > 0, c, base + "lora.rank", "must be > 0 for the KL term's reference policy");
  k.loss_type = c.get_string(base + "loss_type", k.loss_type);
  require(k.loss_type == "grpo" || k.loss_type == "dr_grpo", c, base + "loss_type",
          "must be 'grpo' (each sequence's token mean) or 'dr_grpo' (token sums over a constant: every token weighs the same)");
  return k;
}

}  // namespace falcon::recipe
