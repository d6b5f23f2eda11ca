#pragma once
// The body of the solution-text fuzzer, shared by the libFuzzer binary (tests/fuzz, clang) and
// the deterministic replay in the ordinary test suite. Byte 0 picks the problem, byte 1 the
// instance size, the rest is the model's "output". Aborts (the fuzzer's failure signal) when
// parsing or repair breaks a guarantee: repair must be feasible, idempotent, and writable.
#include <cstddef>
#include <cstdint>

namespace falcon::fuzz {

int solution_text_one_input(const std::uint8_t* data, std::size_t size);

}  // namespace falcon::fuzz
