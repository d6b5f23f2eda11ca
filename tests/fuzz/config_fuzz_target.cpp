// YAML configs through the programs' readers, as the programs call them: parse, read, reject
// unread keys. Byte 0 picks the reader: falcon_datagen's spec, falcon_eval's spec, or
// falcon_train's recipe with its model section (all three without LibTorch).
#include <string>

#include "falcon/core/config.h"
#include "falcon/core/error.h"
#include "falcon/data/datagen_spec.h"
#include "falcon/scoring/eval_spec.h"
#include "falcon/recipe/recipe.h"
#include "tests/fuzz/input_fuzz_targets.h"

namespace falcon::fuzz {

int config_one_input(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const int reader = data[0] % 3;
  static const char* const kReaders[] = {"datagen spec", "eval spec", "training recipe"};
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    Config config = Config::from_string(text, "fuzz.yaml");
    if (reader == 0) {
      (void)data::read_datagen_spec(config);
    } else if (reader == 1) {
      (void)scoring::read_eval_spec(config);
    } else {
      (void)recipe::read_training_config(config);  // checks unused keys itself
    }
    config.check_unused();
  } catch (const Error&) {
    // refused with a message: what a bad config should get
  } catch (const std::exception& e) {
    fuzz_failure("config_fuzz", std::string(kReaders[reader]) + ": not a falcon::Error: " + e.what());
  }
  return 0;
}

}  // namespace falcon::fuzz
