#include "falcon/policy/output_budget.h"

#include "falcon/solvers/solver.h"

namespace falcon::policy {
namespace {

problems::Solution heuristic_solution(const problems::Problem& problem, const problems::Instance& instance) {
  for (const auto* entry : solvers::solvers_for(problem.name()))
    if (entry->method != "reference") return entry->solve(instance, solvers::SolveOptions{});
  return problem.repair(instance, problems::Solution{});
}

}  // namespace

OutputBudget output_budget(const problems::Problem& problem, const problems::Instance& instance,
                           const text::Tokenizer& tokenizer) {
  OutputBudget budget;
  const auto text = problem.format(instance, heuristic_solution(problem, instance));
  budget.solution_tokens = static_cast<int>(tokenizer.encode(text).size()) + 1;  // + EOS
  budget.max_new_tokens = 2 * budget.solution_tokens + 16;
  return budget;
}

}  // namespace falcon::policy
