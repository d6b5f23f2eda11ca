#pragma once
// Reference flow-shop solver (labels): iterated greedy of Ruiz & Stützle (2007), "A simple and
// effective iterated greedy algorithm for the permutation flowshop scheduling problem".
//
//   NEH start -> insertion local search; then repeat: remove d random jobs (destruction),
//   reinsert each at its best position (construction), insertion local search, and accept the
//   result if it is no worse, or with probability exp(-(C' - C) / T), T = temperature *
//   (sum of all times) / (n m 10).
//
// Determinism: the search stops after a budget of evaluated insertion cells (one cell is one
// (position, machine) pair of Taillard's heads/tails evaluation, so the work is proportional
// to run time on any machine), or as soon as the makespan meets Taillard's lower bound. A
// wall-clock cap (time_limit_s > 0) can stop it earlier, and then the result depends on the
// machine's speed.
#include <cstdint>
#include <vector>

#include "falcon/problems/pfsp.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

struct PfspIteratedGreedyOptions {
  std::uint64_t seed = 1;
  int destruction = 4;       // d: jobs removed per iteration
  double temperature = 0.4;  // Ruiz & Stützle's T
  // Budget in evaluated cells per (n m); see kPfspReferenceCellsPerNm for the default.
  double cells_per_nm = 0;
  double time_limit_s = 0;  // > 0: hard wall-clock cap on top of the budget
};

// Default budget, 1e6 cells per n*m: 1e8 cells for 20x5, 4e8 for 20x20. Measured on a shared
// 2-core machine at 2e8-4e8 cells/s: 0.25-0.5 s for 20x5, 1-2 s for 20x20, a sixth or less of
// Ruiz & Stützle's n*m*30 ms. With seed 1 it finds the optimum of every one of ta001-ta030;
// 1e5 gives a mean gap of 0.05% there, 3e5 0.04%.
inline constexpr double kPfspReferenceCellsPerNm = 1e6;

struct PfspIteratedGreedyResult {
  std::vector<int> order;
  long long makespan = 0;
  long long iterations = 0;  // destruction-construction rounds after the first local search
  long long cells = 0;       // work spent
  bool reached_lower_bound = false;
  bool time_capped = false;  // the wall-clock cap stopped it (result may depend on speed)
};

PfspIteratedGreedyResult pfsp_iterated_greedy(const problems::pfsp::PfspInstance& instance,
                                              const PfspIteratedGreedyOptions& options);

// The registry's "reference" method: pfsp_iterated_greedy with the default options.
problems::Solution pfsp_reference(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
