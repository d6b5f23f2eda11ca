#pragma once
// The TSP reference solver (labels and the gaps everything else is measured by):
// iterated local search. Each kick (a double bridge on nearby segments) is followed by 2-opt,
// Or-opt and sequential 3-opt descent (tsp_local_search.h) from the touched nodes only; the new
// local optimum is kept when it is at most slightly longer than the current one, and the best
// tour seen is returned. Instances below 8 nodes are solved exhaustively.
//
// Deterministic for a seed: by default it stops after a number of kicks that grows with n,
// so the result does not depend on the machine. A time limit is a hard cap on top of that
// budget; when it triggers, the result depends on the machine's speed.
#include <cstdint>

#include "falcon/problems/tsp.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

struct TspReferenceOptions {
  // Kicks per run: `kicks` when > 0, else kicks_per_node * n. 100 per node take about 0.05 s
  // at n = 100 on the 2-core development machine.
  long kicks = 0;
  int kicks_per_node = 100;
  int runs = 1;               // independent runs (from nearest-neighbour tours); the best is kept
  int candidates = 10;        // nearest neighbours each node's moves look at
  int max_kick_segment = 50;  // double-bridge segment lengths are 1..this (and <= (n - 2) / 2)
  // A kick's local optimum replaces the current tour when it is at most this many mean edge
  // lengths longer (0: only equal or better); the best tour seen is what is returned.
  double accept_worse = 0.5;
  double time_limit_s = 0;    // > 0: wall-clock cap on top of the kick budget
  std::uint64_t seed = 1;
};

// The tour starts at node 0.
problems::Solution tsp_reference(const problems::tsp::TspInstance& instance, const TspReferenceOptions& options);

// Registry entry: default options with SolveOptions' seed and time limit.
problems::Solution tsp_reference_solver(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
