#pragma once
// Local search on one closed TSP tour: 2-opt, Or-opt (segments of 1-3 nodes moved, either way
// round, next to one of their neighbours) and sequential 3-opt (Lin-Kernighan to depth 3: the
// Or-3opt moves, which also move long segments) over k-nearest-neighbour candidate lists, driven
// by a queue of active nodes (don't-look bits, Bentley 1992), plus the double-bridge kick of
// iterated local search. The tour is an array with a position index: a move costs O(n) to
// apply, which is cheap next to its evaluations at the sizes we label (n <= a few hundred).
#include <utility>
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/problems/routing_geometry.h"

namespace falcon::solvers {

class TspLocalSearch {
 public:
  // Needs g.n >= 8 (smaller instances are solved exhaustively by the caller).
  TspLocalSearch(const problems::RoutingGeometry& g, int candidates);

  // Takes `tour` (a permutation of 0..n-1) and marks every node active, or none when
  // `activate_all` is false (restoring a tour known to be a local optimum).
  void reset(const std::vector<int>& tour, bool activate_all = true);
  // Applies improving moves from active nodes until none is left: a local optimum for all
  // three neighbourhoods as far as the candidate lists reach.
  void optimize();
  // Swaps two adjacent random segments of 1..max_segment nodes (the double bridge A C B D);
  // activates the six nodes whose edges changed.
  void kick(Rng& rng, int max_segment);

  const std::vector<int>& tour() const { return tour_; }
  // Tracked incrementally from move deltas; exact for integer distances.
  double length() const { return length_; }

 private:
  int succ(int v) const { return tour_[pos_[v] + 1 == n_ ? 0 : pos_[v] + 1]; }
  int pred(int v) const { return tour_[pos_[v] == 0 ? n_ - 1 : pos_[v] - 1]; }
  double d(int a, int b) const { return dist_[static_cast<std::size_t>(a) * n_ + b]; }
  void activate(int v);

  bool try_two_opt(int a);
  bool try_or_opt(int a);
  bool try_three_opt(int t1);
  // Replaces the edges removed[i] by added[i] (i < 3) and rebuilds the tour by walking it;
  // throws when the result is not one cycle (a bug in the move's validity checks).
  void exchange(const int removed[3][2], const int added[3][2]);
  int step(int v, bool forward) const { return forward ? succ(v) : pred(v); }
  // Whether x lies on the path from a to b in the given direction (both ends included).
  bool on_path(int a, int x, int b, bool forward) const {
    if (!forward) std::swap(a, b);
    return (pos_[x] - pos_[a] + n_) % n_ <= (pos_[b] - pos_[a] + n_) % n_;
  }
  // Moves the segment s1..s2 (forward in the tour) between x and its successor y, entered
  // from its s1 end unless `reversed`.
  void move_segment(int s1, int s2, int x, bool reversed);
  // Reverses the tour path from position i forward to position j (or, equivalently for the
  // cycle, the shorter complementary path).
  void reverse(int i, int j);

  const std::vector<double>& dist_;
  int n_;
  double eps_;  // improvements smaller than this are rounding noise
  std::vector<std::vector<int>> neighbours_;
  std::vector<int> tour_, pos_, buffer_, segment_;
  std::vector<int> queue_;  // ring buffer of active nodes
  std::vector<char> active_;
  int head_ = 0, size_ = 0;
  double length_ = 0;
};

}  // namespace falcon::solvers
