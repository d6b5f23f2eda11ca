#pragma once
// Dispatching-rule baselines for the job shop (Table 2's FIFO row, plus SPT and MWKR).
// Schedules are non-delay (a machine never idles while an operation waits for it): take the
// earliest time t at which some schedulable operation (job predecessor done) can start, and
// its machine M (ties: lower machine); among the operations that can start on M at t, the rule
// picks one. The machine sequences are the dispatch order, so the semi-active decoding of the
// returned solution is exactly this timetable. Non-delay rather than Giffler-Thompson active
// generation: on the 122 benchmark instances SPT and MWKR have a mean gap of 26.6% and 20.1%
// non-delay but 62.2% and 27.1% active (FIFO: 26.8% both).
#include <functional>

#include "falcon/problems/jssp.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

enum class DispatchRule {
  kFifo,  // first in queue: earliest job-ready time (arrival at the machine)
  kSpt,   // shortest processing time of the operation
  kMwkr,  // most work remaining in the job, this operation included
};

// Ties: lower job index. Deterministic; the seed is not used.
problems::Solution jssp_dispatch(const problems::jssp::JsspInstance& instance, DispatchRule rule);
// The same schedule builder with each pick made by `rank`: given how many jobs can start on the
// machine (>= 2), the rank in the rule's order to take (0: the rule's own choice). A randomised
// `rank` makes a noisy dispatching rule (the heuristic sampler's JSSP walk).
problems::Solution jssp_dispatch(const problems::jssp::JsspInstance& instance, DispatchRule rule,
                                 const std::function<int(int)>& rank);

problems::Solution jssp_fifo(const problems::Instance& instance, const SolveOptions& options);
problems::Solution jssp_spt(const problems::Instance& instance, const SolveOptions& options);
problems::Solution jssp_mwkr(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
