#pragma once
// A model row over a batch of instances: greedy (one argmax decode), fixed N (best of N
// samples) or adaptive (Algorithm 2, adaptive.h), with the row's grammar / semantic masks and
// repair switch.
//
// Samples are drawn in batched rounds, all instances of the batch in lockstep (one generate()
// call per round covers every instance still sampling; each shares its prompt's KV cache among
// its samples). Adaptive: the first round draws n_min samples per instance, later rounds
// round_size, and the rule is evaluated after every sample, so the stopping point and the
// delivered solution are Algorithm 2's exactly; samples past the stop are counted as drawn only.
//
// Sample k of an instance draws from the stream (seed, key * budget + k) (generate.h), so the
// first n samples of an adaptive row with n_max = 64 are the first n of a fixed N = 64 row: the
// two can be compared sample for sample.
//
// symmetric_copies: sample k reads the k-th symmetric copy of its instance (symmetric_copies.h).
//
// with_greedy: one greedy decode per instance before the rounds; the row delivers it where it is
// strictly better than the samples' choice. It changes no sample and no stopping decision.
#include <cstdint>
#include <vector>

#include "falcon/model/transformer.h"
#include "falcon/policy/rollout.h"
#include "falcon/scoring/eval_instances.h"
#include "falcon/scoring/instance_result.h"
#include "falcon/text/tokenizer.h"

namespace falcon::policy {

// instances[i] and items[i] describe the same instance (policy_items.h). `masks` may be empty
// (unconstrained decoding). Returns one result per instance, in order.
std::vector<scoring::InstanceResult> best_of_n(model::CausalLm& model, const text::Tokenizer& tokenizer,
                                      const std::vector<const scoring::EvalInstance*>& instances,
                                      const std::vector<RolloutItem>& items, const scoring::RowSpec& row,
                                      const MaskFactory& masks, std::uint64_t seed);

}  // namespace falcon::policy
