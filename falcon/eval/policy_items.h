#pragma once
// What the model reads for each instance: BOS + prompt_text(instance) tokens (the trainer's
// layout, falcon/train/examples.h), and how many tokens it may write.
#include <cstddef>
#include <string>
#include <vector>

#include "falcon/policy/rollout.h"
#include "falcon/scoring/eval_instances.h"
#include "falcon/text/tokenizer.h"

namespace falcon::eval {

// An instance the model cannot answer whole: its prompt plus a solution's text and EOS need more
// positions than the model has, so any output would be cut off before the end.
struct OverContext {
  std::string instance;
  int n = 0;
  int prompt_tokens = 0;
  int solution_tokens = 0;  // the sizing solution's text + EOS
};

struct PolicyItems {
  std::vector<policy::RolloutItem> items;  // one per instance that fits, in order
  std::vector<std::size_t> kept;          // the index in `instances` of each item
  std::vector<OverContext> over_context;  // the ones that do not fit (only with skip_over_context)
};

// max_new_tokens: `override_tokens` when > 0, else policy::output_budget (sized from the instance
// by its simple heuristic's solution, never from a label), capped so prompt + output fit in
// `max_positions`. An instance whose prompt + that solution's tokens + EOS
// exceed max_positions is listed in over_context when skip_over_context, else it is a
// falcon::Error naming the instance, the count and the key that skips them (data.over_context).
PolicyItems policy_items(const std::vector<scoring::EvalInstance>& instances, const text::Tokenizer& tokenizer,
                         int override_tokens, int max_positions, bool skip_over_context);

}  // namespace falcon::eval
