#pragma once
// Reference orienteering solver (labels, and the gaps other methods are measured by): a memetic
// search over routes, with the moves of op_route_search.h.
//   population: local optima from noisy greedy fills and from noisy drops of a shuffled,
//     shortened tour of every node; each improved by a short iterated local search;
//   child: the union of two binary-tournament parents (the second parent's extra nodes at their
//     cheapest places in the first's route), shortened, dropped back into the budget by
//     prize / saved length, then local search and a short iterated local search (perturb,
//     local search, keep when not worse);
//   survivors: clones are rejected; beyond the population size the individual with the worst
//     rank in quality plus half its rank in diversity (node-set distance to its closest
//     neighbours) leaves, never the best.
// A search that merely iterates local search around one route gets stuck in one region of the
// plane (several percent below the best known values on OPLib); recombining routes from
// different regions is what closes that gap.
// Deterministic for a seed: the number of children does not depend on the machine. A time
// limit is a hard wall-clock cap on top; when it triggers the result depends on the machine.
#include <cstdint>

#include "falcon/problems/op.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

// Children made when OpReferenceOptions::children is 0. Measured on OPLib (n <= 200): 400
// children already reach the quality of 1000 within 0.03% of the best known values on average.
inline constexpr long kDefaultOpChildren = 500;

struct OpReferenceOptions {
  long children = 0;        // 0: kDefaultOpChildren
  int population = 20;      // survivors kept between children
  int ils_steps = 5;        // perturb + local search steps applied to each new individual
  double time_limit_s = 0;  // > 0: also stop when this much wall-clock time has passed
  std::uint64_t seed = 1;
};

problems::Solution op_reference(const problems::op::OpInstance& instance, const OpReferenceOptions& options);

// Registry entry: default options with SolveOptions' seed and time limit.
problems::Solution op_reference_solver(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
