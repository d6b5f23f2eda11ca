#pragma once
// Reference CVRP solver (labels, and the gaps other methods are measured by): hybrid genetic
// search after Vidal (2022, HGS-CVRP). Individuals are giant tours cut into routes by Prins'
// split; offspring come from OX crossover of two binary-tournament parents and are improved by
// the granular local search of cvrp_granular_search.h (relocate, swap, 2-opt, 2-opt*, SWAP*)
// under a capacity penalty that adapts to keep about 20% of the improved offspring feasible.
// Two subpopulations (feasible, infeasible) keep individuals by a fitness biased towards
// diversity (broken-pairs distance), and half the infeasible offspring are repaired by a second
// descent at ten times the penalty.
//
// The fleet is free, as in cvrp.h: the solver minimises length over any number of routes, so on
// CVRPLIB A/B/E/P (whose best known values fix k routes) it may use more than k routes and end
// below the listed value.
//
// Deterministic for a seed: the search stops after a number of iterations (offspring) that does
// not depend on the machine. A time limit is a hard wall-clock cap on top; when it triggers the
// result depends on the machine's speed.
#include <cstdint>

#include "falcon/problems/cvrp.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

struct CvrpReferenceOptions {
  // Stop after this many offspring in a row that do not improve the best feasible solution;
  // 0: default_cvrp_stall_iterations(n).
  int stall_iterations = 0;
  long max_iterations = 0;   // cap on offspring in all; 0: 5 * stall_iterations
  int population = 25;       // mu: survivors of each subpopulation
  int generation = 40;       // lambda: offspring added before survivor selection
  int elite = 4;             // best individuals protected from the diversity bias
  int close = 5;             // neighbours averaged in the diversity measure
  int neighbours = 20;       // granular neighbourhood size of the local search
  double target_feasible = 0.2;
  double time_limit_s = 0;   // > 0: also stop when this much wall-clock time has passed
  std::uint64_t seed = 1;
};

// The stall budget for n nodes (depot included): 20 n, clamped to [500, 2000]. Measured on
// CVRPLIB A/B/E/P (n <= 101): about 0.4 s per instance on average, none above 1.5 s.
int default_cvrp_stall_iterations(int n);

problems::Solution cvrp_reference(const problems::cvrp::CvrpInstance& instance, const CvrpReferenceOptions& options);

// Registry entry: default options with SolveOptions' seed and time limit.
problems::Solution cvrp_reference_solver(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
