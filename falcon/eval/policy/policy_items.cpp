#include "falcon/eval/policy/policy_items.h"

#include <algorithm>

#include "falcon/core/error.h"
#include "falcon/solvers/solver.h"
#include "falcon/policy/prompt_text.h"

namespace falcon::eval {
namespace {

// A solution to size the output budget by when the instance has no label.
problems::Solution sizing_solution(const EvalInstance& e) {
  if (e.reference_solution) return *e.reference_solution;
  for (const auto* entry : solvers::solvers_for(e.problem->name()))
    if (entry->method != "reference") return entry->solve(*e.instance, solvers::SolveOptions{});
  return e.problem->repair(*e.instance, problems::Solution{});
}

}  // namespace

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
    item.prompt = {tokenizer.bos_id()};
    const auto body = tokenizer.encode(policy::prompt_text(*e.problem, *e.instance));
    item.prompt.insert(item.prompt.end(), body.begin(), body.end());
    const int solution_tokens =
        static_cast<int>(tokenizer.encode(e.problem->format(*e.instance, sizing_solution(e))).size()) + 1;  // + EOS
    const int prompt_tokens = static_cast<int>(item.prompt.size());
    if (prompt_tokens + solution_tokens > max_positions) {
      out.over_context.push_back({e.name, e.instance->size(), prompt_tokens, solution_tokens});
      continue;
    }
    const int budget = override_tokens > 0 ? override_tokens : 2 * solution_tokens + 16;
    item.max_new_tokens = std::min(budget, max_positions - prompt_tokens);
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
