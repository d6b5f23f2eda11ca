#pragma once
// The body of the solution-text fuzzer, shared by the libFuzzer binary (tests/fuzz, clang) and
// the deterministic replay in the ordinary test suite. Byte 0 picks the problem and its text style
// (solution_fuzz_problem), byte 1 the instance size, the rest is the model's "output". Aborts (the fuzzer's failure signal) when
// parsing or repair breaks a guarantee: repair must be feasible, idempotent, and writable.
#include <cstddef>
#include <cstdint>

#include "falcon/problems/problem.h"

namespace falcon::fuzz {

// Byte 0's problem in its text style: selector % 7 the problem; (selector / 7) % 3 the paper's
// text, compact ("#k"), or compact_echo (notes after each index) where the problem writes notes.
const problems::Problem& solution_fuzz_problem(std::uint8_t selector);

int solution_text_one_input(const std::uint8_t* data, std::size_t size);

}  // namespace falcon::fuzz
