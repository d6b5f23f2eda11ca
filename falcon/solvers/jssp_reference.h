#pragma once
// Reference job-shop solver (labels): tabu search on the N5 neighbourhood of Nowicki &
// Smutnicki (1996) with restarts from elite solutions, in the spirit of their TSAB.
//
//   Start: the MWKR dispatching rule. Each iteration takes one critical path, cut into blocks,
//   and considers swapping the first two and the last two operations of every block (not the
//   first pair of the first block nor the last pair of the last one: those cannot shorten the
//   path). Moves are ranked by Taillard's estimate; the best one that is not tabu is made,
//   where a move is tabu if it swaps back a pair swapped in the last `tenure` iterations,
//   unless its estimate beats the best makespan (aspiration). The tenure is drawn per move
//   from [tenure_min, tenure_max] (+ n/m, longer for long, thin instances). After
//   `stall_iterations` without a new best, the run's best solution joins an elite set (the
//   elite_size best run results) and the search restarts from a random elite solution kicked
//   by a few random critical swaps, with a fresh tabu list.
//
// Determinism: the search stops after a budget of tabu iterations (iterations_per_op * n * m),
// or as soon as the makespan meets the lower bound. A wall-clock cap (time_limit_s > 0) can
// stop it earlier, and then the result depends on the machine's speed.
#include <cstdint>

#include "falcon/problems/jssp.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

struct JsspTabuOptions {
  std::uint64_t seed = 1;
  // Budget: this * n * m tabu iterations. An iteration costs O(n m), so time grows as (n m)^2:
  // the default is 1e6 iterations for 10x10, measured at 0.7-1.5 s on a shared 2-core machine
  // (2.25e6 for 15x15: 3.5-5 s). With it, seeds 1-5 find the optimum of all 22 of ft06, ft10,
  // la01-la20 but once (la20, seed 2: 907 vs 902); with seed 1, 2000 per operation gives a
  // mean gap of 0.03% there and 200 per operation 0.22%.
  double iterations_per_op = 10000;
  int tenure_min = 8, tenure_max = 12;
  int stall_iterations = 3000;  // without a new best before a restart
  int elite_size = 8;
  int kick_swaps = 3;  // random critical swaps applied to an elite solution on a restart
  double time_limit_s = 0;  // > 0: hard wall-clock cap on top of the budget
};

struct JsspTabuResult {
  problems::Solution solution;  // m machine sequences of the jobs, acyclic
  std::int64_t makespan = 0;
  long long iterations = 0;
  int restarts = 0;
  bool reached_lower_bound = false;
  bool time_capped = false;  // the wall-clock cap stopped it (result may depend on speed)
};

JsspTabuResult jssp_tabu_search(const problems::jssp::JsspInstance& instance, const JsspTabuOptions& options);

// The registry's "reference" method: jssp_tabu_search with the default options.
problems::Solution jssp_reference(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
