#pragma once
// DFA minimisation: the coarsest partition of a DFA's states into classes of equivalent states
// (the same accepted suffixes), by Hopcroft's algorithm in O(k n log n). Moore's round-by-round
// refinement, which this replaced, takes as many rounds as the longest shortest distinguishing
// suffix: on a chain-shaped automaton of 2,000 states that is 2,000 passes over every state.
#include <cstdint>
#include <vector>

namespace falcon::decoding {

// `trans` is states x k (row-major), -1 for a missing transition (the byte is rejected);
// `accepting` marks the accepting states. Returns each state's block, numbered 0, 1, ... in the
// order of each block's first state. Missing transitions are read as edges into an implicit
// dead state, so a state is never merged with one that accepts a suffix it rejects.
std::vector<std::int32_t> minimise_dfa(const std::vector<std::int32_t>& trans, const std::vector<std::uint8_t>& accepting,
                                       int k);

}  // namespace falcon::decoding
