#pragma once
// Reference solver for MIS and MVC (labels, and the optimum every gap is measured against):
//   1. exact reductions (mis_reductions.h) to a kernel;
//   2. two local searches on the kernel, a tenth of their budget each: NuMVC
//      (mis_local_search.h, fastest on BHOSLIB) and phased local search (mis_phased_search.h,
//      the one that finds the camouflaged sets of the brock graphs);
//   3. exact branch and bound (mis_branch_and_bound.h) per connected component of the kernel,
//      seeded with the best set found, within a work budget: a component whose search
//      finishes is solved to proven optimality;
//   4. while a component is open: the rest of both local-search budgets, then one more bounded
//      exact search on the components they improved (a better incumbent can make the proof).
// Deterministic for a seed: every phase stops on a count (steps, work), never on the clock,
// unless time_limit_s > 0, which caps the wall clock on top and can then change the result.
// MVC is the complement V \ S of the set found (tau = n - alpha); optimality carries over.
#include <cstdint>
#include <vector>

#include "falcon/problems/graph.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

struct MisReferenceOptions {
  std::uint64_t seed = 1;
  double time_limit_s = 0;  // > 0: hard wall-clock cap on top of the budgets below
  // Local-search steps (additions, swaps, exchanges) of both searches together, -1 = default:
  // kDefaultStepsPerVertex per kernel vertex, within [kMinSteps, kMaxDefaultSteps];
  // 0 = no local search. NuMVC gets kNuMvcShare of them, the phased search the rest.
  long long local_search_steps = -1;
  // Branch-and-bound work (MisBranchAndBoundOptions::max_work) per pass, shared by the
  // kernel's components (smallest first); -1 = kDefaultBranchAndBoundWork; 0 = no exact search.
  long long branch_and_bound_work = -1;
  // Components larger than this are not searched exactly (bitset rows are n^2 / 8 bytes).
  int branch_and_bound_max_vertices = 4000;
  bool reduce = true;
};

inline constexpr long long kDefaultStepsPerVertex = 4000;
inline constexpr long long kMinSteps = 20000;
inline constexpr long long kMaxDefaultSteps = 4000000;  // kernels above 1000 vertices: ~3 s here
inline constexpr double kNuMvcShare = 0.3;
inline constexpr long long kDefaultBranchAndBoundWork = 500000000;  // ~0.7 s a pass here

struct MisReferenceResult {
  std::vector<int> set;          // an independent set, ascending
  bool proven_optimal = false;   // |set| = alpha, proven by the reductions and the exact search
  int kernel_vertices = 0;       // vertices left after the reductions
  long long local_search_steps = 0;
  long long branch_and_bound_nodes = 0;
  long long branch_and_bound_work = 0;
  bool time_limit_hit = false;   // the wall-clock cap stopped a phase early
};

MisReferenceResult mis_reference(const problems::Graph& g, const MisReferenceOptions& options = {});

// Registry adapters: SolveOptions' seed and time limit, the default budgets.
problems::Solution mis_reference_solve(const problems::Instance& instance, const SolveOptions& options);
problems::Solution mvc_reference_solve(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
