#include "falcon/problems/pfsp_insertion.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "falcon/problems/compact_text.h"
#include "falcon/problems/list_ops.h"

namespace falcon::problems::pfsp {
namespace {

// Replays anchors one at a time: the partial order, and which jobs it holds.
class InsertionReplay {
 public:
  explicit InsertionReplay(const PfspInstance& instance)
      : instance_(instance), jobs_(neh_job_order(instance)), placed_(instance.jobs, 0) {}

  // Places the next job after `anchor`; places nothing (the step still counts) when the anchor is
  // neither kFirstPlace nor a job placed so far, or every job is placed.
  void place(int anchor) {
    const std::size_t step = steps_++;
    if (step >= jobs_.size()) return;
    auto at = order_.begin();
    if (anchor != kFirstPlace) {
      if (anchor < 0 || anchor >= instance_.jobs || !placed_[anchor]) return;
      at = std::find(order_.begin(), order_.end(), anchor) + 1;
    }
    order_.insert(at, jobs_[step]);
    placed_[jobs_[step]] = 1;
  }
  bool done() const { return steps_ >= jobs_.size(); }
  int next_job() const { return jobs_[steps_]; }  // only when !done()
  const std::vector<int>& order() const { return order_; }

 private:
  const PfspInstance& instance_;
  std::vector<int> jobs_;  // NEH's order
  std::vector<char> placed_;
  std::vector<int> order_;
  std::size_t steps_ = 0;
};

// "#j:#a#b...": the next job's places, least makespan first (the sort is stable: earlier first).
std::string places_note(const PfspInstance& instance, const std::vector<int>& order, int job) {
  const std::vector<long long> makespans = insertion_makespans(instance, order, job);
  std::vector<int> positions(makespans.size());
  std::iota(positions.begin(), positions.end(), 0);
  std::stable_sort(positions.begin(), positions.end(), [&](int a, int b) { return makespans[a] < makespans[b]; });
  std::vector<int> anchors;  // 1-based job IDs, 0 for first
  for (int position : positions) anchors.push_back(position == 0 ? 0 : order[position - 1] + 1);
  return "#" + std::to_string(job + 1) + ":" + id_list_text(anchors);
}

}  // namespace

Solution insertion_anchors(const PfspInstance& instance, const Solution& order) {
  constexpr int kMissing = -1;
  std::vector<int> position(instance.jobs, kMissing);  // each job's first place in `order`
  const std::vector<int> kept = deduplicate(order.items(), 0, instance.jobs - 1).kept;
  for (std::size_t i = 0; i < kept.size(); ++i) position[kept[i]] = static_cast<int>(i);
  std::vector<int> anchors, placed;  // placed: the jobs so far, in their final order
  for (int job : neh_job_order(instance)) {
    if (position[job] == kMissing) {
      anchors.push_back(job);  // not placed yet, so it places nothing
      continue;
    }
    const auto at = std::find_if(placed.begin(), placed.end(), [&](int other) { return position[other] > position[job]; });
    anchors.push_back(at == placed.begin() ? kFirstPlace : *(at - 1));
    placed.insert(at, job);
  }
  return Solution::flat(std::move(anchors));
}

Solution from_insertions(const PfspInstance& instance, const Solution& anchors) {
  InsertionReplay replay(instance);
  int extra = 0;
  for (int anchor : anchors.items()) {
    if (replay.done()) ++extra;
    replay.place(anchor);
  }
  std::vector<int> order = replay.order();
  order.insert(order.end(), extra, instance.jobs);
  return Solution::flat(std::move(order));
}

EchoNotes insertion_notes(const PfspInstance& instance, const Solution& anchors) {
  InsertionReplay replay(instance);
  EchoNotes notes;
  for (const auto& list : anchors.lists) {
    notes.emplace_back();
    for (int anchor : list) {
      replay.place(anchor);
      notes.back().push_back(replay.done() ? "" : places_note(instance, replay.order(), replay.next_job()));
    }
  }
  return notes;
}

}  // namespace falcon::problems::pfsp
