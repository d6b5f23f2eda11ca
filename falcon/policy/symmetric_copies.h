#pragma once
// Symmetric copies (eval rows' symmetric_copies, beyond the paper; POMO's augmentation at
// inference): sample s of an instance reads the s-th random symmetric copy of it
// (Problem::symmetric_copy: relabelled IDs, the square's symmetries; s = 0 the instance itself)
// instead of the same prompt again, and what it writes is carried back to the instance. The
// samples of a row are then views of one instance through its symmetries rather than draws of one
// prompt; at temperature 0 each copy is decoded by argmax.
//
// Copy s of an instance is drawn from a stream of its own (keyed like sample s, apart from the
// sampling streams), and its sample from the sampling stream the plain row's sample s uses, so
// rows compare sample for sample.
#include <cstdint>
#include <vector>

#include "falcon/policy/rollout.h"

namespace falcon::policy {

struct CopiedItem {
  RolloutItem item;                // what the model reads: the copy's prompt, one sample
  problems::SymmetricCopy copy;    // how to carry its answer back (no relabelling for s = 0)
};

// Samples [first, first + count) of `original`, one copied item each. Their keys are
// original.key * stride + s: roll them out with samples_per_item 1, first_sample 0 and
// key_stride 1. A copy whose prompt leaves no room for the answer in `max_positions` is read as
// the instance itself.
std::vector<CopiedItem> copied_items(const RolloutItem& original, int first, int count, std::uint64_t stride,
                                     std::uint64_t seed, const text::Tokenizer& tokenizer, int max_positions);

// A sample of a copy as one of the instance: the delivered solution and the model's own (before
// repair) carried back and scored again on the instance, the text written again for it in the
// problem's text (the model's text itself names the copy's IDs). A text with nothing parsed is
// kept as it is.
RolloutSample carried_back(const RolloutSample& sample, const CopiedItem& copied, const RolloutItem& original);

}  // namespace falcon::policy
