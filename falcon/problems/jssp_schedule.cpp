#include "falcon/problems/jssp_schedule.h"

#include <algorithm>

#include "falcon/problems/list_ops.h"

namespace falcon::problems::jssp {

PermutationRepair repair_permutations(const JsspInstance& instance, const Solution& solution) {
  const int n = instance.jobs, m = instance.machines;
  const int lists = static_cast<int>(solution.lists.size());
  PermutationRepair out;
  out.list_count_error = std::abs(lists - m);
  for (int i = m; i < lists; ++i) out.surplus_entries += static_cast<int>(solution.lists[i].size());
  out.sequences.reserve(m);
  for (int r = 0; r < m; ++r) {
    Deduplicated d = deduplicate(r < lists ? solution.lists[r] : std::vector<int>{}, 0, n - 1);
    out.invalid += d.invalid;
    out.duplicates += d.duplicates;
    for (int j : missing_indices(d.kept, 0, n - 1)) {
      d.kept.push_back(j);
      ++out.missing;
    }
    out.sequences.push_back(std::move(d.kept));
  }
  return out;
}

DecodedSchedule decode_schedule(const JsspInstance& instance, std::vector<std::vector<int>> sequences) {
  const int n = instance.jobs, m = instance.machines;
  // pos[r][j]: index of job j in sequences[r], kept current across moves.
  std::vector<std::vector<int>> pos(m, std::vector<int>(n, 0));
  for (int r = 0; r < m; ++r) {
    for (int i = 0; i < n; ++i) pos[r][sequences[r][i]] = i;
  }
  std::vector<int> head(m, 0);     // first undispatched index of each sequence
  std::vector<int> next_op(n, 0);  // route index of each job's next operation
  std::vector<std::int64_t> job_ready(n, 0), machine_ready(m, 0);
  DecodedSchedule out;
  out.start.assign(n, std::vector<std::int64_t>(m, 0));

  // The machine of job j's next operation, or -1 when the job is finished.
  auto machine_of_next = [&](int j) { return next_op[j] < m ? instance.routes[j][next_op[j]].machine : -1; };

  long long remaining = static_cast<long long>(n) * m;
  while (remaining > 0) {
    bool progress = false;
    for (int r = 0; r < m; ++r) {
      while (head[r] < n) {
        const int j = sequences[r][head[r]];
        if (machine_of_next(j) != r) break;  // its job predecessor is not done yet
        const int k = next_op[j];
        const std::int64_t s = std::max(job_ready[j], machine_ready[r]);
        out.start[j][k] = s;
        job_ready[j] = machine_ready[r] = s + instance.routes[j][k].duration;
        out.makespan = std::max(out.makespan, job_ready[j]);
        ++next_op[j];
        ++head[r];
        --remaining;
        progress = true;
      }
    }
    if (progress || remaining == 0) continue;
    // Deadlock: move the schedulable operation nearest its machine's front to that front.
    int best_r = -1, best_j = -1, best_gap = n + 1;
    for (int j = 0; j < n; ++j) {
      const int r = machine_of_next(j);
      if (r < 0) continue;
      const int gap = pos[r][j] - head[r];
      if (gap < best_gap || (gap == best_gap && r < best_r)) best_gap = gap, best_r = r, best_j = j;
    }
    std::vector<int>& seq = sequences[best_r];
    for (int i = pos[best_r][best_j]; i > head[best_r]; --i) {
      seq[i] = seq[i - 1];
      pos[best_r][seq[i]] = i;
    }
    seq[head[best_r]] = best_j;
    pos[best_r][best_j] = head[best_r];
    ++out.deadlock_breaks;
  }
  out.sequences = std::move(sequences);
  return out;
}

}  // namespace falcon::problems::jssp
