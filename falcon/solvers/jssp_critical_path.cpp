#include "falcon/solvers/jssp_critical_path.h"

#include <algorithm>
#include <limits>
#include <string>

#include "falcon/core/error.h"

namespace falcon::solvers {

JobShopGraph::JobShopGraph(const problems::jssp::JsspInstance& instance)
    : jobs_(instance.jobs), machines_(instance.machines), seq_(instance.machines) {
  const int n = jobs_, m = machines_;
  if (static_cast<int>(instance.routes.size()) != n) throw Error("jssp graph: routes do not match the job count");
  duration_.resize(static_cast<std::size_t>(n) * m);
  machine_.resize(duration_.size());
  for (int j = 0; j < n; ++j) {
    const auto& route = instance.routes[j];
    std::vector<bool> seen(m, false);
    if (static_cast<int>(route.size()) != m) throw Error("jssp graph: job " + std::to_string(j) + " does not have m operations");
    for (int k = 0; k < m; ++k) {
      const int r = route[k].machine;
      if (r < 0 || r >= m || seen[r]) throw Error("jssp graph: job " + std::to_string(j) + " does not visit each machine once");
      seen[r] = true;
      duration_[j * m + k] = route[k].duration;
      machine_[j * m + k] = r;
    }
  }
  pos_.assign(duration_.size(), 0);
  head_.assign(duration_.size(), 0);
  tail_.assign(duration_.size(), 0);
  indegree_.assign(duration_.size(), 0);
  topo_.reserve(duration_.size());
  topo_pos_.assign(duration_.size(), 0);
  mark_.assign(duration_.size(), 0);
}

bool JobShopGraph::set_solution(const problems::Solution& solution) {
  const int n = jobs_, m = machines_;
  if (static_cast<int>(solution.lists.size()) != m) return false;
  // op_on[j*m + r]: job j's operation on machine r.
  std::vector<int> op_on(duration_.size());
  for (int op = 0; op < operations(); ++op) op_on[(op / m) * m + machine_[op]] = op;
  for (int r = 0; r < m; ++r) {
    const auto& list = solution.lists[r];
    if (static_cast<int>(list.size()) != n) return false;
    std::vector<bool> seen(n, false);
    seq_[r].clear();
    for (int i = 0; i < n; ++i) {
      const int j = list[i];
      if (j < 0 || j >= n || seen[j]) return false;
      seen[j] = true;
      seq_[r].push_back(op_on[j * m + r]);
      pos_[seq_[r].back()] = i;
    }
  }
  return evaluate();
}

problems::Solution JobShopGraph::solution() const {
  problems::Solution out;
  out.lists.resize(machines_);
  for (int r = 0; r < machines_; ++r) {
    for (int op : seq_[r]) out.lists[r].push_back(op / machines_);
  }
  return out;
}

bool JobShopGraph::evaluate() {
  const int count = operations();
  topo_.clear();
  for (int op = 0; op < count; ++op) {
    indegree_[op] = (job_pred(op) >= 0) + (pos_[op] > 0);
    if (indegree_[op] == 0) topo_.push_back(op);
  }
  for (std::size_t i = 0; i < topo_.size(); ++i) {
    const int op = topo_[i];
    topo_pos_[op] = static_cast<int>(i);
    for (int next : {job_succ(op), machine_succ(op)}) {
      if (next >= 0 && --indegree_[next] == 0) topo_.push_back(next);
    }
  }
  if (static_cast<int>(topo_.size()) != count) return false;
  update_heads(0);
  update_tails(count - 1);
  update_makespan();
  return true;
}

void JobShopGraph::update_heads(int from) {
  for (int i = from; i < operations(); ++i) {
    const int op = topo_[i];
    head_[op] = std::max(end_of(job_pred(op)), end_of(machine_pred(op)));
  }
}

void JobShopGraph::update_tails(int to) {
  for (int i = to; i >= 0; --i) {
    const int op = topo_[i];
    tail_[op] = std::max(tail_from(job_succ(op)), tail_from(machine_succ(op)));
  }
}

void JobShopGraph::update_makespan() {
  // Every path ends at some job's last operation (it has no job successor).
  makespan_ = 0;
  for (int op = machines_ - 1; op < operations(); op += machines_) makespan_ = std::max(makespan_, end_of(op));
}

void JobShopGraph::critical_path(CriticalPath& path) const {
  path.ops.clear();
  path.block_begin.clear();
  int u = -1;
  for (int op = machines_ - 1; op < operations() && u < 0; op += machines_) {
    if (end_of(op) == makespan_) u = op;
  }
  while (u >= 0) {
    path.ops.push_back(u);
    const int mp = machine_pred(u), jp = job_pred(u);
    if (mp >= 0 && end_of(mp) == head_[u]) {
      u = mp;
    } else if (jp >= 0 && end_of(jp) == head_[u]) {
      u = jp;
    } else {
      u = -1;
    }
  }
  std::reverse(path.ops.begin(), path.ops.end());
  for (std::size_t i = 0; i < path.ops.size(); ++i) {
    if (i == 0 || machine_[path.ops[i]] != machine_[path.ops[i - 1]]) path.block_begin.push_back(static_cast<int>(i));
  }
  path.block_begin.push_back(static_cast<int>(path.ops.size()));
}

std::int64_t JobShopGraph::swap_estimate(int u, int v) const {
  const std::int64_t head_v = std::max(end_of(job_pred(v)), end_of(machine_pred(u)));
  const std::int64_t head_u = std::max(end_of(job_pred(u)), head_v + duration_[v]);
  const std::int64_t tail_u = std::max(tail_from(job_succ(u)), tail_from(machine_succ(v)));
  const std::int64_t tail_v = std::max(tail_from(job_succ(v)), tail_u + duration_[u]);
  return std::max(head_v + duration_[v] + tail_v, head_u + duration_[u] + tail_u);
}

bool JobShopGraph::swap(int u, int v) {
  auto& s = seq_[machine_[u]];
  const int i = pos_[u];
  s[i] = v;
  s[i + 1] = u;
  pos_[v] = i;
  pos_[u] = i + 1;
  // The old order stays topological except for the new arc v -> u (the arcs a -> v and u -> b
  // replacing a -> u and v -> b point forward already). Pearce & Kelly: in the stretch from u
  // to v, move what v reaches back (B, v included) before what u reaches (F, u included),
  // each keeping its order, into the places they held. F and B meet only on a cycle.
  const int lo = topo_pos_[u], hi = topo_pos_[v];
  if (lo > hi) {
    update_heads(hi);
    update_tails(lo);
    update_makespan();
    return true;
  }
  if (stamp_ > std::numeric_limits<int>::max() - 4) std::fill(mark_.begin(), mark_.end(), stamp_ = 0);
  stamp_ += 2;
  const int in_f = stamp_, in_b = stamp_ + 1;
  forward_.clear();
  backward_.clear();
  slots_.clear();
  for (int k = lo; k <= hi; ++k) {
    const int op = topo_[k], jp = job_pred(op), mp = machine_pred(op);
    if (op == u || (jp >= 0 && mark_[jp] == in_f) || (mp >= 0 && mark_[mp] == in_f)) mark_[op] = in_f;
  }
  for (int k = hi; k >= lo; --k) {
    const int op = topo_[k], js = job_succ(op), ms = machine_succ(op);
    if (op == v || (js >= 0 && mark_[js] == in_b) || (ms >= 0 && mark_[ms] == in_b)) {
      if (mark_[op] == in_f) return false;
      mark_[op] = in_b;
    }
  }
  for (int k = lo; k <= hi; ++k) {
    const int op = topo_[k];
    if (mark_[op] == in_f) {
      forward_.push_back(op), slots_.push_back(k);
    } else if (mark_[op] == in_b) {
      backward_.push_back(op), slots_.push_back(k);
    }
  }
  reordered_ = backward_;
  reordered_.insert(reordered_.end(), forward_.begin(), forward_.end());
  for (std::size_t k = 0; k < slots_.size(); ++k) {
    topo_[slots_[k]] = reordered_[k];
    topo_pos_[reordered_[k]] = slots_[k];
  }
  update_heads(lo);
  update_tails(hi);
  update_makespan();
  return true;
}

}  // namespace falcon::solvers
