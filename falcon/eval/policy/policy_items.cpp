#include "falcon/eval/policy/policy_items.h"

#include <algorithm>

#include "falcon/core/error.h"
#include "falcon/solvers/solver.h"
#include "falcon/train/examples.h"

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

std::vector<train::RolloutItem> policy_items(const std::vector<EvalInstance>& instances, const text::Tokenizer& tokenizer,
                                             int override_tokens, int max_positions) {
  std::vector<train::RolloutItem> items;
  for (const auto& e : instances) {
    train::RolloutItem item;
    item.problem = e.problem;
    item.instance = e.instance;
    item.reference_objective = e.reference;
    item.key = e.key;
    item.prompt = {tokenizer.bos_id()};
    const auto body = tokenizer.encode(train::prompt_text(*e.problem, *e.instance));
    item.prompt.insert(item.prompt.end(), body.begin(), body.end());
    int budget = override_tokens;
    if (budget <= 0) {
      const auto text = e.problem->format(*e.instance, sizing_solution(e));
      budget = 2 * (static_cast<int>(tokenizer.encode(text).size()) + 1) + 16;
    }
    const int room = max_positions - static_cast<int>(item.prompt.size());
    if (room < 1)
      throw Error("instance '" + e.name + "': its prompt has " + std::to_string(item.prompt.size()) +
                  " tokens, the model's max_position_embeddings is " + std::to_string(max_positions) +
                  "; evaluate smaller instances (data.limit, another split) or use a model with a longer context");
    item.max_new_tokens = std::min(budget, room);
    items.push_back(std::move(item));
  }
  return items;
}

}  // namespace falcon::eval
