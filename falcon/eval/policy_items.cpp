#include "falcon/eval/policy_items.h"

#include <algorithm>

#include "falcon/core/error.h"
#include "falcon/policy/output_budget.h"
#include "falcon/policy/prompt_text.h"

namespace falcon::eval {

using namespace scoring;  // the run is written in the terms of what it scores

PolicyItems policy_items(const std::vector<EvalInstance>& instances, const text::Tokenizer& tokenizer,
                         int override_tokens, int max_positions, bool skip_over_context) {
  PolicyItems out;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const auto& e = instances[i];
    policy::RolloutItem item;
    item.problem = e.problem;
    item.instance = e.instance;
    item.reference_objective = e.reference;
    item.key = e.key;
    item.prompt = policy::prompt_tokens(*e.problem, *e.instance, tokenizer);
    const auto budget = policy::output_budget(*e.problem, *e.instance, tokenizer);
    const int solution_tokens = budget.solution_tokens;
    const int prompt_tokens = static_cast<int>(item.prompt.size());
    if (prompt_tokens + solution_tokens > max_positions) {
      out.over_context.push_back({e.name, e.instance->size(), prompt_tokens, solution_tokens});
      continue;
    }
    item.max_new_tokens = std::min(override_tokens > 0 ? override_tokens : budget.max_new_tokens,
                                   max_positions - prompt_tokens);
    out.items.push_back(std::move(item));
    out.kept.push_back(i);
  }
  if (!out.over_context.empty() && !skip_over_context) {
    const auto& first = out.over_context.front();
    throw Error("instance '" + first.instance + "' (and " + std::to_string(out.over_context.size() - 1) + " more of " +
                std::to_string(instances.size()) + "): its prompt (" + std::to_string(first.prompt_tokens) +
                " tokens) and a solution (" + std::to_string(first.solution_tokens) +
                " tokens) do not fit the model's max_position_embeddings of " + std::to_string(max_positions) +
                "; set data.over_context=skip to evaluate the others and list these in summary.json, evaluate "
                "smaller instances, or use a model with a longer context");
  }
  return out;
}

}  // namespace falcon::eval
