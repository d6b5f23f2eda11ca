#pragma once
// A grammar with a fixed index range is regular (nesting depth <= 2, recursion only at the
// end or the start of a rule), so it compiles to a minimised, trimmed byte-level DFA: every
// state can still reach acceptance, and a missing transition (-1) means the byte is not
// allowed. This is what the token automaton walks vocabulary tokens through.
#include <cstdint>
#include <string_view>
#include <vector>

#include "falcon/decoding/grammar.h"
#include "falcon/problems/grammar_spec.h"

namespace falcon::decoding {

using problems::IndexRange;  // the values <index> stands for (problems/grammar_spec.h)

struct CompileLimits {
  int max_nfa_states = 2'000'000;
  int max_dfa_states = 200'000;
};

class ByteDfa {
 public:
  static constexpr std::int32_t kReject = -1;

  // Throws falcon::Error naming the grammar source (and line) when a recursion makes the
  // grammar non-regular, the automaton exceeds `limits`, or the language is empty.
  static ByteDfa compile(const Grammar& grammar, IndexRange range, const CompileLimits& limits = {});

  int num_states() const { return static_cast<int>(accepting_.size()); }
  int start() const { return start_; }
  bool accepting(int state) const { return accepting_[state] != 0; }
  std::int32_t step(int state, unsigned char byte) const { return next_[static_cast<std::size_t>(state) * 256 + byte]; }
  // The state after `bytes` from `state`, or kReject.
  std::int32_t walk(int state, std::string_view bytes) const;
  bool accepts(std::string_view text) const;

 private:
  std::int32_t start_ = 0;
  std::vector<std::int32_t> next_;  // num_states x 256
  std::vector<std::uint8_t> accepting_;
};

}  // namespace falcon::decoding
