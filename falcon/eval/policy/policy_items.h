#pragma once
// What the model reads for each instance: BOS + prompt_text(instance) tokens (the trainer's
// layout, falcon/train/examples.h), and how many tokens it may write.
#include <vector>

#include "falcon/eval/eval_instances.h"
#include "falcon/text/tokenizer.h"
#include "falcon/train/rollout.h"

namespace falcon::eval {

// max_new_tokens: `override_tokens` when > 0, else 2 x the tokens of a reference solution's text
// + 16 (the label; for benchmark files the problem's first heuristic's solution), capped so
// prompt + output fit in `max_positions`. Throws falcon::Error naming the instance when the
// prompt alone leaves no room.
std::vector<train::RolloutItem> policy_items(const std::vector<EvalInstance>& instances, const text::Tokenizer& tokenizer,
                                             int override_tokens, int max_positions);

}  // namespace falcon::eval
