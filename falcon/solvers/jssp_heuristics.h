#pragma once
// Dispatching-rule baselines for the job shop (Table 2's FIFO row, plus SPT and MWKR).
// Schedules are built by Giffler-Thompson active schedule generation: take the schedulable
// operation (job predecessor done) that would finish first, its machine M and finish time C;
// among the schedulable operations on M that could start before C (the conflict set), the
// rule picks one, which starts at max(job ready, M ready). The machine sequences are the
// dispatch order, so the semi-active decoding of the returned solution is exactly this
// timetable.
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

problems::Solution jssp_fifo(const problems::Instance& instance, const SolveOptions& options);
problems::Solution jssp_spt(const problems::Instance& instance, const SolveOptions& options);
problems::Solution jssp_mwkr(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
