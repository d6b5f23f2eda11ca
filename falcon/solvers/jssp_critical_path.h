#pragma once
// The disjunctive graph of a job-shop solution, for local search: operations (job j's k-th
// operation is node j*m + k), job arcs along each route and machine arcs along each machine
// sequence; heads (earliest starts), tails (longest path after an operation's end), the
// makespan, one critical path cut into blocks, and adjacent swaps with their estimate.
#include <cstdint>
#include <vector>

#include "falcon/problems/jssp.h"

namespace falcon::solvers {

class JobShopGraph {
 public:
  // Throws falcon::Error unless every route visits each machine exactly once.
  explicit JobShopGraph(const problems::jssp::JsspInstance& instance);

  // Machine sequences from a solution: m lists, each a permutation of the jobs (no repair).
  // Returns false, leaving the graph unusable until the next call, when the graph is cyclic.
  bool set_solution(const problems::Solution& solution);
  problems::Solution solution() const;  // lists[machine] = jobs in processing order

  int operations() const { return static_cast<int>(duration_.size()); }
  std::int64_t makespan() const { return makespan_; }
  std::int64_t head(int op) const { return head_[op]; }
  std::int64_t tail(int op) const { return tail_[op]; }
  std::int64_t duration(int op) const { return duration_[op]; }
  int machine_of(int op) const { return machine_[op]; }
  int job_pred(int op) const { return op % machines_ ? op - 1 : -1; }
  int job_succ(int op) const { return (op + 1) % machines_ ? op + 1 : -1; }
  int machine_pred(int op) const { return pos_[op] ? seq_[machine_[op]][pos_[op] - 1] : -1; }
  int machine_succ(int op) const {
    const auto& s = seq_[machine_[op]];
    return pos_[op] + 1 < static_cast<int>(s.size()) ? s[pos_[op] + 1] : -1;
  }

  // One critical path from a source to the last operation of the lowest-numbered job that ends
  // last, cut into blocks: maximal runs of operations on one machine, each run adjacent
  // in its machine sequence. Walking back, a machine predecessor is preferred over a job
  // predecessor when both are critical, which keeps blocks long. Fills `path` (buffers reused).
  struct CriticalPath {
    std::vector<int> ops;          // source first
    std::vector<int> block_begin;  // block b is ops[block_begin[b], block_begin[b + 1]); ends with ops.size()
    int blocks() const { return static_cast<int>(block_begin.size()) - 1; }
    int block_size(int b) const { return block_begin[b + 1] - block_begin[b]; }
  };
  void critical_path(CriticalPath& path) const;

  // Lower bound on the makespan after swapping u and v, where v directly follows u on their
  // machine: the longest path through u or v after the swap, from unchanged heads and tails
  // (Taillard 1994). Exact when the longest new path goes through u or v.
  std::int64_t swap_estimate(int u, int v) const;
  // Swaps u and v (v directly after u on their machine) and updates heads and tails.
  // Swapping two adjacent operations of a critical path never creates a cycle (van Laarhoven,
  // Aarts & Lenstra 1992). Returns false, leaving the graph unusable, on a cycle otherwise.
  // Cost: the topological order is repaired only between u and v (Pearce & Kelly 2006), heads
  // are recomputed from u's place on and tails up to v's: about half of a full evaluation.
  bool swap(int u, int v);

 private:
  bool evaluate();  // topological order (Kahn), heads, tails, makespan; false on a cycle
  void update_heads(int from);  // along topo_ from this index on
  void update_tails(int to);    // along topo_ from this index down to 0
  void update_makespan();
  std::int64_t end_of(int op) const { return op < 0 ? 0 : head_[op] + duration_[op]; }
  std::int64_t tail_from(int op) const { return op < 0 ? 0 : tail_[op] + duration_[op]; }

  int jobs_, machines_;
  std::vector<std::int64_t> duration_;
  std::vector<int> machine_;
  std::vector<std::vector<int>> seq_;  // seq_[machine] = operations in processing order
  std::vector<int> pos_;               // index of each operation in its machine's sequence
  std::vector<std::int64_t> head_, tail_;
  std::int64_t makespan_ = 0;
  std::vector<int> topo_, topo_pos_;  // a topological order of the graph and its inverse
  std::vector<int> indegree_;         // scratch for evaluate()
  std::vector<int> forward_, backward_, slots_, reordered_;  // scratch for swap()
  std::vector<int> mark_;             // mark_[op] == stamp_ (F) or stamp_ + 1 (B) in swap()
  int stamp_ = 0;
};

}  // namespace falcon::solvers
