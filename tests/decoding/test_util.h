#pragma once
// Shared by the decoding tests: one trained SentencePiece vocabulary per test binary, a
// uniform sampler over a mask, and instances of every problem at a given size.
#include <memory>
#include <string>

#include "falcon/core/rng.h"
#include "falcon/decoding/grammar_state.h"
#include "falcon/decoding/token_automaton.h"
#include "falcon/decoding/vocabulary.h"
#include "falcon/problems/problem.h"

namespace falcon::decoding::testing {

// BPE, vocabulary 2000 (the project default), trained on generated prompts and solutions of
// every problem (n = 20 and 100) with the corpus's heuristic labels. Trained once per process.
const Vocabulary& trained_vocabulary();

// Uniformly one of the allowed tokens (the mask must allow at least one).
int sample_uniform(const TokenMask& mask, Rng& rng);

// Samples one sequence to EOS with uniformly random choices; returns its text. Fails the
// test (and returns what it has) after max_tokens.
std::string sample_text(GrammarState state, Rng& rng, int max_tokens = 100000);

// Whether `text` can still be completed to a sentence GrammarSpec::accepts: a second,
// independent recogniser (recursive descent like GrammarSpec's, but prefix-aware), the
// reference the token masks are checked against.
bool viable_prefix(const problems::GrammarSpec& spec, std::string_view text);

std::shared_ptr<const problems::Instance> make_instance(const std::string& problem, int n, std::uint64_t seed = 1);

// The bytes a state with `options` allows after `prefix`, fed byte by byte on the byte-level
// vocabulary ("<eos>" last when EOS is allowed), or "refused 'c'" at the first byte it refuses.
std::string allowed_after(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                          const GrammarOptions& options, const std::string& prefix);

}  // namespace falcon::decoding::testing
