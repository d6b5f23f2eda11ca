#include "falcon/recipe/dpo_keys.h"

#include "falcon/recipe/key_checks.h"
#include "falcon/recipe/stage.h"

namespace falcon::recipe {

DpoKeys read_dpo_keys(Config& c, const std::string& base, const StageSpec& stage) {
  DpoKeys k;
  k.beta = c.get_double(base + "beta", k.beta);
  require(k.beta > 0, c, base + "beta", "must be positive");
  require(stage.lora.rank > 0, c, base + "lora.rank", "must be > 0: the reference policy is the model with adapters disabled");
  return k;
}

}  // namespace falcon::recipe
