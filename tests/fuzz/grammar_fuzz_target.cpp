// BNF grammar files (Grammar::load's text): a grammar that parses must compile to a byte
// automaton within the limits or be refused with falcon::Error; a compiled one must answer
// accepts() on any text.
#include <string>
#include <string_view>

#include "falcon/core/error.h"
#include "falcon/decoding/byte_dfa.h"
#include "falcon/decoding/grammar.h"
#include "tests/fuzz/input_fuzz_targets.h"

namespace falcon::fuzz {

int grammar_one_input(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  decoding::CompileLimits limits;  // small: a fuzzer must not spend seconds on one input
  limits.max_nfa_states = 20000;
  limits.max_dfa_states = 2000;
  try {
    const decoding::Grammar grammar = decoding::Grammar::parse(text, "fuzz.bnf");
    const decoding::ByteDfa dfa = decoding::ByteDfa::compile(grammar, {0, 30}, limits);
    (void)dfa.accepts("Route: [#0, 5], Objective: 1.00");
    (void)dfa.accepts(text.substr(0, 64));
  } catch (const Error&) {
    // refused with a message
  } catch (const std::exception& e) {
    fuzz_failure("grammar_fuzz", std::string("not a falcon::Error: ") + e.what());
  }
  return 0;
}

}  // namespace falcon::fuzz
