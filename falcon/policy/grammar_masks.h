#pragma once
// MaskFactory for rollouts: the problem's grammar, compiled for the tokenizer and each instance's
// index range (cached per (grammar, range, vocabulary)), and optionally the semantic mask or the
// computed notes (decoding/grammar_state.h's GrammarOptions).
#include "falcon/decoding/grammar_state.h"
#include "falcon/policy/rollout.h"

namespace falcon::policy {

// grammar = false and no tracker in `options`: no mask steps (unconstrained decoding, an ablation).
// grammar = false with computed_notes: any text, except that the decoder writes each note.
MaskFactory make_mask_factory(const text::Tokenizer& tokenizer, bool grammar, const decoding::GrammarOptions& options = {});

}  // namespace falcon::policy
