#include "falcon/solvers/jssp_heuristics.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace falcon::solvers {

using problems::jssp::JsspInstance;

problems::Solution jssp_dispatch(const JsspInstance& instance, DispatchRule rule) {
  const int n = instance.jobs, m = instance.machines;
  std::vector<int> next_op(n, 0);
  std::vector<std::int64_t> job_ready(n, 0), machine_ready(m, 0), work_left(n, 0);
  for (int j = 0; j < n; ++j) {
    for (const auto& op : instance.routes[j]) work_left[j] += op.duration;
  }
  problems::Solution out;
  out.lists.assign(m, {});

  // True when rule prefers job a over job b (both in the conflict set; a < b breaks ties).
  auto better = [&](int a, int b) {
    switch (rule) {
      case DispatchRule::kFifo: return job_ready[a] < job_ready[b];
      case DispatchRule::kSpt: return instance.routes[a][next_op[a]].duration < instance.routes[b][next_op[b]].duration;
      case DispatchRule::kMwkr: return work_left[a] > work_left[b];
    }
    return false;
  };

  for (long long step = 0; step < static_cast<long long>(n) * m; ++step) {
    // The schedulable operation that would finish first fixes the machine and the horizon.
    std::int64_t horizon = std::numeric_limits<std::int64_t>::max();
    int machine = -1;
    for (int j = 0; j < n; ++j) {
      if (next_op[j] == m) continue;
      const auto& op = instance.routes[j][next_op[j]];
      const std::int64_t finish = std::max(job_ready[j], machine_ready[op.machine]) + op.duration;
      if (finish < horizon) horizon = finish, machine = op.machine;
    }
    int chosen = -1;
    for (int j = 0; j < n; ++j) {
      if (next_op[j] == m || instance.routes[j][next_op[j]].machine != machine) continue;
      const std::int64_t start = std::max(job_ready[j], machine_ready[machine]);
      // Zero-duration operations may have start == horizon; the op that set the horizon
      // always qualifies, since its start <= its finish == horizon.
      const bool conflicts = start < horizon || start + instance.routes[j][next_op[j]].duration == horizon;
      if (conflicts && (chosen < 0 || better(j, chosen))) chosen = j;
    }
    const auto& op = instance.routes[chosen][next_op[chosen]];
    const std::int64_t end = std::max(job_ready[chosen], machine_ready[machine]) + op.duration;
    job_ready[chosen] = machine_ready[machine] = end;
    work_left[chosen] -= op.duration;
    ++next_op[chosen];
    out.lists[machine].push_back(chosen);
  }
  return out;
}

namespace {

const JsspInstance& cast(const problems::Instance& instance) {
  return problems::instance_as<JsspInstance>(instance, "jssp");
}

}  // namespace

problems::Solution jssp_fifo(const problems::Instance& instance, const SolveOptions&) {
  return jssp_dispatch(cast(instance), DispatchRule::kFifo);
}
problems::Solution jssp_spt(const problems::Instance& instance, const SolveOptions&) {
  return jssp_dispatch(cast(instance), DispatchRule::kSpt);
}
problems::Solution jssp_mwkr(const problems::Instance& instance, const SolveOptions&) {
  return jssp_dispatch(cast(instance), DispatchRule::kMwkr);
}

}  // namespace falcon::solvers
