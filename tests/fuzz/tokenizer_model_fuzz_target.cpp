// tokenizer.model and tokenizer.json files: a model that loads must encode and decode any text
// without error, and every id it produces must be in range.
#include <string>
#include <string_view>

#include "falcon/core/error.h"
#include "falcon/text/tokenizer.h"
#include "tests/fuzz/input_fuzz_targets.h"

namespace falcon::fuzz {

int tokenizer_model_one_input(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const text::Tokenizer tokenizer = text::Tokenizer::from_bytes(bytes, "fuzz.model");
    for (const std::string_view text : {std::string_view("Route: [#0, #5], Objective: 3.85"), std::string_view("\xff\x00 a", 4),
                                        bytes.substr(0, 64)}) {
      const auto ids = tokenizer.encode(text);
      for (int id : ids)
        if (id < 0 || id >= tokenizer.vocab_size()) fuzz_failure("tokenizer_model_fuzz", "encode gave id " + std::to_string(id));
      (void)tokenizer.decode(ids);
    }
  } catch (const Error&) {
    // refused with a message
  } catch (const std::exception& e) {
    fuzz_failure("tokenizer_model_fuzz", std::string("not a falcon::Error: ") + e.what());
  }
  return 0;
}

}  // namespace falcon::fuzz
