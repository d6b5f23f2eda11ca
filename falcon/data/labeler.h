#pragma once
// Labels instances with a solver on a pool of std::thread workers. Each task is self-contained
// (its instance is regenerated from its plan), so results do not depend on the thread count or
// on the order in which tasks finish.
#include <cstdint>
#include <functional>
#include <vector>

#include "falcon/data/datagen_spec.h"
#include "falcon/data/schema.h"
#include "falcon/solvers/solver.h"

namespace falcon::data {

// Solves one instance and times it. Throws falcon::Error when the solution is infeasible: a label
// must be a feasible solution, and an infeasible one means a solver bug worth stopping for.
Label label_instance(const problems::Problem& problem, const solvers::SolverEntry& solver, const problems::Instance& instance,
                     std::uint64_t solver_seed, double time_limit_s);

struct LabelTask {
  int split = 0;  // into DatagenSpec::splits
  ItemPlan plan;
};

struct LabelOutcome {
  int split = 0;
  std::int64_t index = 0;
  Label label;
};

// Labels `tasks` on `threads` workers (>= 1). `on_batch` runs on the calling thread with all the
// outcomes that finished since its previous call, in completion order (so a journal pays one
// fsync per batch, not per label). When a task or `on_batch` fails, workers take no new task,
// the outcomes already finished are still handed to `on_batch`, and the first failure is rethrown,
// naming the split and index for a task.
void label_in_parallel(const DatagenSpec& spec, const std::vector<LabelTask>& tasks, int threads,
                       const std::function<void(std::vector<LabelOutcome>&)>& on_batch);

// Workers for `requested` threads (0 = every core) and `tasks` tasks: at least 1.
int worker_count(int requested, std::size_t tasks);

}  // namespace falcon::data
