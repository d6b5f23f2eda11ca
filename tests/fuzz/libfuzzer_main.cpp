// libFuzzer entry point (clang -fsanitize=fuzzer), one binary per target: FALCON_FUZZ_ENTRY names
// the target's body and FALCON_FUZZ_START, where set, what runs once before the first input
// (tests/fuzz/CMakeLists.txt). Build: tools/fuzz.sh.
#include "tests/fuzz/input_fuzz_targets.h"
#include "tests/fuzz/instance_file_fuzz_target.h"
#include "tests/fuzz/solution_fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return falcon::fuzz::FALCON_FUZZ_ENTRY(data, size);
}

#ifdef FALCON_FUZZ_START
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  falcon::fuzz::FALCON_FUZZ_START();
  return 0;
}
#endif
