#pragma once
// Phased local search (Pullan, J. Comb. Optim. 2006; DLS-MC of Pullan and Hoos, JAIR 2006),
// written for independent sets: "free" vertices (no neighbour in S) extend S, "1-tight"
// vertices (one neighbour in S) swap with that neighbour on a plateau, and a vertex swapped
// out during a plateau may not come back in it. Each iteration (extend, plateau, extend, ...
// until stuck) ends with a perturbation. Phases cycle through three selection rules:
// random (50 iterations), vertex penalties (50), minimum degree (100). The penalty phase is
// what finds the camouflaged independent sets of the brock graphs, whose vertices have
// ordinary degrees, where degree- and weight-driven searches (NuMVC, ARW's ILS) settle on a
// smaller set of low-degree vertices (brock400_2: 25 instead of 29).
#include <chrono>
#include <cstdint>
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/problems/graph.h"

namespace falcon::solvers {

class PhasedSearch {
 public:
  // Starts from `start_set`, which must be an independent set of g.
  PhasedSearch(const problems::Graph& g, const std::vector<int>& start_set, std::uint64_t seed);

  // Up to about `steps` more additions and swaps (a running iteration finishes its current
  // extension); stops early once an independent set of `target` vertices is known, or at the
  // deadline (a hard cap: results then depend on the machine). Returns the steps done.
  long long run(long long steps, int target,
                std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

  std::vector<int> best_independent_set() const;  // ascending
  int best_size() const { return best_size_; }

 private:
  enum class Rule { kRandom, kPenalty, kDegree };

  void add(int v);
  void remove(int v);
  void force(int v);  // add v after removing its neighbours in S
  int pick(const std::vector<int>& candidates, Rule rule, bool skip_swapped_out);
  int solution_neighbour(int v) const;
  void update_penalties();
  void record_best();

  const problems::Graph& g_;
  std::vector<char> in_;
  std::vector<int> tight_;              // neighbours in S
  std::vector<int> free_, free_pos_;    // not in S, tight 0
  std::vector<int> one_, one_pos_;      // not in S, tight 1
  std::vector<int> set_, set_pos_;      // S
  std::vector<int> penalty_;
  long long penalty_updates_ = 0;
  std::vector<long long> swapped_out_;  // plateau id in which the vertex left S
  std::vector<long long> plateau_start_;  // plateau id in which the vertex was in S at its start
  long long plateau_ = 0;
  long long iteration_ = 0;
  int last_added_ = -1;
  std::vector<int> scratch_;
  std::vector<char> best_in_;
  int best_size_ = 0;
  Rng rng_;
};

}  // namespace falcon::solvers
