#pragma once
// MaskFactory for rollouts: the problem's grammar, compiled for the tokenizer and each instance's
// index range (cached per (grammar, range, vocabulary)), and optionally the semantic mask.
#include "falcon/policy/rollout.h"

namespace falcon::policy {

// grammar = false and semantic = false: no mask steps (unconstrained decoding, an ablation).
// semantic = true implies the grammar mask (the semantic mask reads the grammar's text).
MaskFactory make_mask_factory(const text::Tokenizer& tokenizer, bool grammar, bool semantic);

}  // namespace falcon::policy
