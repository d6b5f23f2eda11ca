// libFuzzer entry point (clang -fsanitize=fuzzer). Build: tools/fuzz.sh.
#include "tests/fuzz/solution_fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return falcon::fuzz::solution_text_one_input(data, size);
}
