#include "falcon/scoring/solver_row.h"

#include <chrono>

#include "falcon/solvers/solver.h"

namespace falcon::scoring {

InstanceResult run_solver_row(const RowSpec& row, const EvalInstance& e, std::uint64_t seed) {
  const auto& problem = *e.problem;
  const bool repair_only = row.solver == "repair_empty";
  const auto start = std::chrono::steady_clock::now();
  problems::Solution solution;
  if (repair_only) {
    solution = problem.repair(*e.instance, problems::Solution{});
  } else {
    const auto& entry = solvers::solver_by_name(problem.name(), row.solver);
    solvers::SolveOptions options;
    options.seed = seed;
    options.time_limit_s = row.time_limit_s;
    solution = entry.solve(*e.instance, options);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  InstanceResult r;
  r.row = row.name;
  r.instance = e.name;
  r.key = e.key;
  r.n = e.instance->size();
  const bool feasible = problem.feasible(*e.instance, solution);
  r.feasible_raw = feasible && !repair_only;  // the empty answer itself is never feasible
  r.repaired = repair_only;
  set_objective(r, problem.sense(), feasible, problem.objective(*e.instance, solution), e.reference);
  r.seconds.total = seconds;
  (repair_only ? r.seconds.repair : r.seconds.solver) = seconds;
  r.solution = problem.format(*e.instance, solution);
  return r;
}

}  // namespace falcon::scoring
