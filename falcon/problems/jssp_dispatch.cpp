#include "falcon/problems/jssp_dispatch.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

#include "falcon/problems/compact_text.h"
#include "falcon/problems/jssp_schedule.h"

namespace falcon::problems::jssp {
namespace {

// A partial dispatch: each job's next operation, and when each job and machine is free.
class DispatchState {
 public:
  explicit DispatchState(const JsspInstance& instance)
      : instance_(instance),
        next_op_(instance.jobs, 0),
        job_ready_(instance.jobs, 0),
        machine_ready_(instance.machines, 0),
        work_left_(instance.jobs, 0) {
    for (int j = 0; j < instance.jobs; ++j)
      for (const auto& op : instance.routes[j]) work_left_[j] += op.duration;
  }

  bool has_work(int job) const { return job >= 0 && job < instance_.jobs && next_op_[job] < instance_.machines; }
  int next_machine(int job) const { return instance_.routes[job][next_op_[job]].machine; }

  // Appends the job's next operation to its machine; a job with none left moves nothing.
  void dispatch(int job) {
    if (!has_work(job)) return;
    const Operation& op = instance_.routes[job][next_op_[job]];
    job_ready_[job] = machine_ready_[op.machine] = earliest_start(job) + op.duration;
    work_left_[job] -= op.duration;
    ++next_op_[job];
  }

  // The jobs with operations left, MWKR dispatch's first choice first (the header's order).
  std::vector<int> ranked_jobs() const {
    using Key = std::tuple<std::int64_t, int, std::int64_t, int>;  // start, machine, -work left, job
    std::vector<Key> keyed;
    for (int j = 0; j < instance_.jobs; ++j)
      if (has_work(j)) keyed.emplace_back(earliest_start(j), next_machine(j), -work_left_[j], j);
    std::sort(keyed.begin(), keyed.end());
    std::vector<int> jobs;
    for (const Key& key : keyed) jobs.push_back(std::get<3>(key));
    return jobs;
  }

  // The Giffler-Thompson conflict set (the header's order); empty when every job is done.
  std::vector<int> conflict_set() const {
    std::int64_t finish = std::numeric_limits<std::int64_t>::max();
    int machine = -1, first = -1;
    for (int j = 0; j < instance_.jobs; ++j) {
      if (!has_work(j)) continue;
      const std::int64_t end = earliest_finish(j);
      if (end < finish || (end == finish && next_machine(j) < machine)) finish = end, machine = next_machine(j), first = j;
    }
    using Key = std::tuple<std::int64_t, std::int64_t, int>;  // start, -work left, job
    std::vector<Key> keyed;
    for (int j = 0; j < instance_.jobs; ++j)  // the first to finish too, when it takes no time
      if (has_work(j) && next_machine(j) == machine && (earliest_start(j) < finish || j == first))
        keyed.emplace_back(earliest_start(j), -work_left_[j], j);
    std::sort(keyed.begin(), keyed.end());
    std::vector<int> jobs;
    for (const Key& key : keyed) jobs.push_back(std::get<2>(key));
    return jobs;
  }

  // When the job's next operation would end if picked now.
  std::int64_t earliest_finish(int job) const { return earliest_start(job) + next_duration(job); }

 private:
  std::int64_t next_duration(int job) const { return instance_.routes[job][next_op_[job]].duration; }
  std::int64_t earliest_start(int job) const {
    return std::max(job_ready_[job], machine_ready_[next_machine(job)]);
  }

  const JsspInstance& instance_;
  std::vector<int> next_op_;
  std::vector<std::int64_t> job_ready_, machine_ready_, work_left_;
};

// The note after each pick: `note` of the state it leaves, as the text's 1-based IDs.
EchoNotes notes_after_picks(const JsspInstance& instance, const Solution& picks,
                            std::vector<int> (DispatchState::*note)() const) {
  DispatchState state(instance);
  EchoNotes notes;
  for (const auto& list : picks.lists) {
    notes.emplace_back();
    for (int job : list) {
      state.dispatch(job);
      std::vector<int> ids = (state.*note)();
      for (int& id : ids) ++id;
      notes.back().push_back(id_list_text(ids));
    }
  }
  return notes;
}

}  // namespace

EchoNotes dispatch_notes(const JsspInstance& instance, const Solution& picks) {
  return notes_after_picks(instance, picks, &DispatchState::ranked_jobs);
}

EchoNotes conflict_notes(const JsspInstance& instance, const Solution& picks) {
  return notes_after_picks(instance, picks, &DispatchState::conflict_set);
}

Solution conflict_order(const JsspInstance& instance, const Solution& schedule) {
  const std::vector<std::vector<int>> sequences = repair_permutations(instance, schedule).sequences;
  std::vector<int> at(instance.machines, 0);  // per machine: how much of its sequence is placed
  std::vector<std::vector<bool>> placed(instance.machines, std::vector<bool>(instance.jobs, false));
  DispatchState state(instance);
  std::vector<int> order;
  for (std::vector<int> set = state.conflict_set(); !set.empty(); set = state.conflict_set()) {
    const int machine = state.next_machine(set.front());
    while (at[machine] < instance.jobs && placed[machine][sequences[machine][at[machine]]]) ++at[machine];
    // The schedule's next job on the machine keeps its place when it competes; otherwise the one
    // that finishes first goes ahead of it, by then free to start no later than in the schedule.
    int chosen = -1;
    if (at[machine] < instance.jobs) {
      const int next = sequences[machine][at[machine]];
      if (std::find(set.begin(), set.end(), next) != set.end()) chosen = next;
    }
    if (chosen < 0)
      chosen = *std::min_element(set.begin(), set.end(), [&](int a, int b) {
        return std::make_pair(state.earliest_finish(a), a) < std::make_pair(state.earliest_finish(b), b);
      });
    placed[machine][chosen] = true;
    state.dispatch(chosen);
    order.push_back(chosen);
  }
  return Solution::flat(order);
}

Solution dispatch_order(const JsspInstance& instance, const Solution& schedule) {
  const DecodedSchedule timetable = decode_schedule(instance, repair_permutations(instance, schedule).sequences);
  std::vector<int> next_op(instance.jobs, 0), at(instance.machines, 0);  // per job, per machine: the next to start
  std::vector<int> order;
  const int operations = instance.jobs * instance.machines;
  while (static_cast<int>(order.size()) < operations) {
    int chosen = -1;
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    for (int r = 0; r < instance.machines; ++r) {
      if (at[r] == instance.jobs) continue;
      const int j = timetable.sequences[r][at[r]];
      // Next on its machine; next on its job too? (The timetable is acyclic, so some head is.)
      if (next_op[j] == instance.machines || instance.routes[j][next_op[j]].machine != r) continue;
      const std::int64_t start = timetable.start[j][next_op[j]];
      if (start < first) first = start, chosen = j;  // machines ascend: ties stay with the lower
    }
    if (chosen < 0) break;  // unreachable for a decoded timetable; the order stays short, for repair
    ++at[instance.routes[chosen][next_op[chosen]].machine];
    ++next_op[chosen];
    order.push_back(chosen);
  }
  return Solution::flat(order);
}

Solution from_dispatch(const JsspInstance& instance, const Solution& picks) {
  DispatchState state(instance);
  Solution schedule;
  schedule.lists.assign(instance.machines, {});
  for (int job : picks.items()) {
    if (!state.has_work(job)) continue;
    schedule.lists[state.next_machine(job)].push_back(job);
    state.dispatch(job);
  }
  return schedule;
}

}  // namespace falcon::problems::jssp
