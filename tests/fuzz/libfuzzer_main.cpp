// libFuzzer entry point (clang -fsanitize=fuzzer), one binary per target. Build: tools/fuzz.sh.
#ifdef FALCON_FUZZ_INSTANCE_FILES
#include "tests/fuzz/instance_file_fuzz_target.h"
#else
#include "tests/fuzz/solution_fuzz_target.h"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
#ifdef FALCON_FUZZ_INSTANCE_FILES
  return falcon::fuzz::instance_file_one_input(data, size);
#else
  return falcon::fuzz::solution_text_one_input(data, size);
#endif
}
