#include "falcon/core/error.h"
#include "falcon/solvers/routing_heuristics.h"
#include "falcon/solvers/solver.h"
// REGISTRY-INCLUDE: aco
#include "falcon/solvers/pfsp_heuristics.h"
#include "falcon/solvers/graph_heuristics.h"
#include "falcon/solvers/op_heuristics.h"
#include "falcon/solvers/jssp_heuristics.h"

namespace falcon::solvers {
namespace {

const std::vector<SolverEntry>& all_solvers() {
  static const std::vector<SolverEntry> solvers = {
      {"tsp", "nearest_neighbor", &tsp_nearest_neighbor},
      // REGISTRY-LINE: aco
      // REGISTRY-LINE: cvrp
      {"pfsp", "neh", &pfsp_neh},
      {"mis", "greedy", &mis_greedy},
      {"mvc", "greedy", &mvc_greedy},
      {"op", "greedy", &op_greedy},
      {"jssp", "fifo", &jssp_fifo},
      {"jssp", "spt", &jssp_spt},
      {"jssp", "mwkr", &jssp_mwkr},
  };
  return solvers;
}

}  // namespace

const SolverEntry& solver_by_name(std::string_view problem, std::string_view method) {
  std::string known;
  for (const SolverEntry& s : all_solvers()) {
    if (s.problem != problem) continue;
    if (s.method == method) return s;
    known += (known.empty() ? "" : ", ") + std::string(s.method);
  }
  throw Error("unknown method '" + std::string(method) + "' for problem '" + std::string(problem) +
              "'; known methods: " + (known.empty() ? "(none)" : known));
}

std::vector<const SolverEntry*> solvers_for(std::string_view problem) {
  std::vector<const SolverEntry*> out;
  for (const SolverEntry& s : all_solvers()) {
    if (s.problem == problem) out.push_back(&s);
  }
  return out;
}

}  // namespace falcon::solvers
