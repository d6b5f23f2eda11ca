// YAML configs through the readers of the torch-free programs (falcon_datagen's spec and
// falcon_eval's spec), as the programs call them: parse, read the spec, reject unread keys.
#include <string>

#include "falcon/core/config.h"
#include "falcon/core/error.h"
#include "falcon/data/datagen_spec.h"
#include "falcon/eval/eval_spec.h"
#include "tests/fuzz/input_fuzz_targets.h"

namespace falcon::fuzz {

int config_one_input(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const bool datagen = data[0] % 2 == 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    Config config = Config::from_string(text, "fuzz.yaml");
    if (datagen) {
      (void)data::read_datagen_spec(config);
    } else {
      (void)eval::read_eval_spec(config);
    }
    config.check_unused();
  } catch (const Error&) {
    // refused with a message: what a bad config should get
  } catch (const std::exception& e) {
    fuzz_failure("config_fuzz", std::string(datagen ? "datagen" : "eval") + " spec: not a falcon::Error: " + e.what());
  }
  return 0;
}

}  // namespace falcon::fuzz
