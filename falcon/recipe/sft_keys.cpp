#include "falcon/recipe/sft_keys.h"

#include "falcon/recipe/key_checks.h"
#include "falcon/recipe/stage.h"

namespace falcon::recipe {

SftKeys read_sft_keys(Config& c, const std::string& base, const StageSpec& stage) {
  SftKeys k;
  // With steps given, epochs are not used: the resolved recipe says 0 rather than a default that did nothing.
  k.epochs = c.get_double(base + "epochs", stage.steps > 0 ? 0.0 : k.epochs);
  require(stage.steps > 0 || k.epochs > 0, c, base + "epochs", "or steps must be positive");
  return k;
}

}  // namespace falcon::recipe
