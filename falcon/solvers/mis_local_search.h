#pragma once
// NuMVC (Cai, Su, Luo, Sattar, JAIR 2013): local search for minimum vertex cover, used for MIS
// as V minus the cover. It keeps a cover candidate C of size k-1 once a cover of size k is
// found and exchanges one vertex out (highest dscore, oldest on a tie, not the one just added)
// and one vertex in (an endpoint of a random uncovered edge, by configuration checking) per
// step, with edge weights that grow on uncovered edges and are scaled down by rho when their
// mean reaches gamma = n/2. The fastest here on the BHOSLIB graphs (alpha within 100k steps
// on frb30-15-*); on brock400_* it stays at 25, which the phased search (mis_phased_search.h)
// covers.
#include <chrono>
#include <cstdint>
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/problems/graph.h"

namespace falcon::solvers {

struct NuMvcOptions {
  std::uint64_t seed = 1;
  double gamma_per_vertex = 0.5;  // forget when the mean edge weight reaches this times n
  double rho = 0.3;               // forgetting keeps floor(rho * weight)
};

class NuMvc {
 public:
  // Starts from the cover V minus `start_set`, which must be an independent set of g.
  NuMvc(const problems::Graph& g, const std::vector<int>& start_set, const NuMvcOptions& options = {});

  // Up to `steps` more exchange steps; stops early once an independent set of `target`
  // vertices is known, or at `deadline` (a hard cap: results then depend on the machine).
  // Returns the steps done. Calls continue the same search (weights, ages, candidate).
  long long run(long long steps, int target,
                std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

  std::vector<int> best_independent_set() const;  // ascending
  int best_size() const { return n_ - best_cover_size_; }
  // Recomputes dscores, the uncovered-edge list and the cover list from scratch and compares
  // them with the incremental ones (tests).
  bool consistent() const;

 private:
  void add(int v);
  void remove(int v);
  int highest_dscore_in_cover(bool skip_tabu);
  void bump_weights();
  void forget_weights();
  void record_best();

  int n_, m_;
  std::vector<int> eu_, ev_;            // edge endpoints
  std::vector<int> offsets_, nbr_, inc_;  // CSR: neighbour and edge id per slot
  std::vector<long long> dscore_;
  std::vector<int> weight_;
  std::vector<char> in_cover_, conf_change_, best_in_cover_;
  std::vector<long long> age_;
  std::vector<int> uncovered_, uncovered_pos_;
  std::vector<int> cover_, cover_pos_;
  int best_cover_size_ = 0;
  int tabu_ = -1;
  long long step_ = 0;
  long long total_weight_ = 0;
  long long forget_threshold_ = 1;
  double rho_ = 0.3;
  Rng rng_;
};

}  // namespace falcon::solvers
