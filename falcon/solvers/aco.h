#pragma once
// Ant colony optimisation for TSP and CVRP (the ACO row of Table 2): MAX-MIN Ant System
// (Stuetzle & Hoos 2000) with nearest-neighbour candidate lists, and a local search on the best
// ant of every iteration (2-opt for TSP; 2-opt, relocate, swap and 2-opt* for CVRP).
// Seeded and deterministic for a fixed iteration budget; with a time limit the number of
// iterations, and so the result, depends on the machine.
#include <cstdint>

#include "falcon/problems/cvrp.h"
#include "falcon/problems/tsp.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

struct AcoOptions {
  int ants = 0;              // 0: min(n, 30)
  // Used when time_limit_s == 0; 0: 3000 for TSP, 1500 for CVRP (about 0.5 s and 1 s at n = 100
  // on the 2-core development machine).
  int iterations = 0;
  double time_limit_s = 0;   // > 0: iterate until this much time has passed instead
  int candidates = 15;       // length of each node's nearest-neighbour list
  double alpha = 1.0;        // pheromone exponent
  double beta = 3.0;         // exponent of the heuristic 1/d
  double rho = 0.2;          // evaporation rate
  int restart_after = 100;   // iterations without improvement before pheromones are reset
  bool local_search = true;  // false: the plain colony (closer to the paper's weak ACO numbers)
  std::uint64_t seed = 1;
};

problems::Solution tsp_aco(const problems::tsp::TspInstance& instance, const AcoOptions& options);
problems::Solution cvrp_aco(const problems::cvrp::CvrpInstance& instance, const AcoOptions& options);

// Registry entries: default AcoOptions with SolveOptions' seed and time limit.
problems::Solution tsp_aco_solver(const problems::Instance& instance, const SolveOptions& options);
problems::Solution cvrp_aco_solver(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
