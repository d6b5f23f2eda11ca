#include "falcon/eval/solver_row.h"

#include <chrono>

#include "falcon/solvers/solver.h"

namespace falcon::eval {

InstanceResult run_solver_row(const RowSpec& row, const EvalInstance& e, std::uint64_t seed) {
  const auto& problem = *e.problem;
  const auto& entry = solvers::solver_by_name(problem.name(), row.solver);
  solvers::SolveOptions options;
  options.seed = seed;
  options.time_limit_s = row.time_limit_s;
  const auto start = std::chrono::steady_clock::now();
  const auto solution = entry.solve(*e.instance, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  InstanceResult r;
  r.row = row.name;
  r.instance = e.name;
  r.key = e.key;
  r.n = e.instance->size();
  const bool feasible = problem.feasible(*e.instance, solution);
  r.feasible_raw = feasible;
  set_objective(r, problem.sense(), feasible, problem.objective(*e.instance, solution), e.reference);
  r.seconds.total = r.seconds.solver = seconds;
  r.solution = problem.format(*e.instance, solution);
  return r;
}

}  // namespace falcon::eval
