#include "falcon/solvers/jssp_heuristics.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>

namespace falcon::solvers {

using problems::jssp::JsspInstance;

problems::Solution jssp_dispatch(const JsspInstance& instance, DispatchRule rule) {
  return jssp_dispatch(instance, rule, [](int) { return 0; });
}

problems::Solution jssp_dispatch(const JsspInstance& instance, DispatchRule rule, const std::function<int(int)>& rank) {
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
    // The earliest start of any schedulable operation fixes the time and the machine.
    std::int64_t now = std::numeric_limits<std::int64_t>::max();
    int machine = -1;
    for (int j = 0; j < n; ++j) {
      if (next_op[j] == m) continue;
      const int r = instance.routes[j][next_op[j]].machine;
      const std::int64_t start = std::max(job_ready[j], machine_ready[r]);
      if (start < now || (start == now && r < machine)) now = start, machine = r;
    }
    std::vector<int> conflict;  // the jobs that can start on the machine now, the rule's first choice first
    for (int j = 0; j < n; ++j) {
      if (next_op[j] == m || instance.routes[j][next_op[j]].machine != machine) continue;
      if (std::max(job_ready[j], machine_ready[machine]) == now) conflict.push_back(j);
    }
    std::stable_sort(conflict.begin(), conflict.end(), better);
    const int r = conflict.size() == 1 ? 0 : rank(static_cast<int>(conflict.size()));
    const int chosen = conflict[std::clamp(r, 0, static_cast<int>(conflict.size()) - 1)];
    const auto& op = instance.routes[chosen][next_op[chosen]];
    job_ready[chosen] = machine_ready[machine] = now + op.duration;
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
