#include "falcon/solvers/tsp_local_search.h"

#include <algorithm>
#include <cmath>

#include "falcon/core/error.h"

namespace falcon::solvers {

TspLocalSearch::TspLocalSearch(const problems::RoutingGeometry& g, int candidates)
    : dist_(g.distance), n_(g.n), neighbours_(g.n), tour_(g.n), pos_(g.n), queue_(g.n), active_(g.n, 0) {
  if (n_ < 8) throw Error("TspLocalSearch needs at least 8 nodes (got " + std::to_string(n_) + ")");
  double largest = 0;
  for (double x : dist_) largest = std::max(largest, std::abs(x));
  eps_ = 1e-10 * std::max(largest, 1e-300);
  const int k = std::clamp(candidates, 1, n_ - 1);
  std::vector<int> others;
  for (int i = 0; i < n_; ++i) {
    others.clear();
    for (int j = 0; j < n_; ++j) {
      if (j != i) others.push_back(j);
    }
    // Ties (coincident nodes) broken by index so the lists, and so the search, are deterministic.
    std::partial_sort(others.begin(), others.begin() + k, others.end(),
                      [&](int a, int b) { return d(i, a) < d(i, b) || (d(i, a) == d(i, b) && a < b); });
    neighbours_[i].assign(others.begin(), others.begin() + k);
  }
}

void TspLocalSearch::reset(const std::vector<int>& tour, bool activate_all) {
  tour_ = tour;
  length_ = 0;
  for (int i = 0; i < n_; ++i) {
    pos_[tour_[i]] = i;
    length_ += d(tour_[i], tour_[i + 1 == n_ ? 0 : i + 1]);
  }
  std::fill(active_.begin(), active_.end(), 0);
  head_ = size_ = 0;
  if (activate_all) {
    for (int i = 0; i < n_; ++i) activate(tour_[i]);
  }
}

void TspLocalSearch::activate(int v) {
  if (active_[v]) return;
  active_[v] = 1;
  queue_[(head_ + size_) % n_] = v;
  ++size_;
}

void TspLocalSearch::optimize() {
  while (size_ > 0) {
    const int a = queue_[head_];
    head_ = (head_ + 1) % n_;
    --size_;
    active_[a] = 0;
    // A successful move re-activates its endpoints, `a` among them.
    if (!try_two_opt(a)) try_or_opt(a);
  }
}

bool TspLocalSearch::try_two_opt(int a) {
  for (int forward = 1; forward >= 0; --forward) {
    const int b = forward ? succ(a) : pred(a);
    const double d_ab = d(a, b);
    for (int c : neighbours_[a]) {
      const double d_ac = d(a, c);
      if (d_ac >= d_ab - eps_) break;  // gain criterion: the new edge must be shorter
      const int dd = forward ? succ(c) : pred(c);
      if (c == b || dd == a) continue;
      const double delta = d_ac + d(b, dd) - d_ab - d(c, dd);
      if (delta >= -eps_) continue;
      // forward: a b ... c dd -> a c ... b dd; backward: b a ... dd c -> b dd ... a c.
      if (forward) {
        reverse(pos_[b], pos_[c]);
      } else {
        reverse(pos_[a], pos_[dd]);
      }
      length_ += delta;
      for (int v : {a, b, c, dd}) activate(v);
      return true;
    }
  }
  return false;
}

bool TspLocalSearch::try_or_opt(int a) {
  for (int len = 1; len <= 3; ++len) {
    for (int a_first = 1; a_first >= (len == 1 ? 1 : 0); --a_first) {
      int s1 = a, s2 = a;
      for (int i = 1; i < len; ++i) {
        if (a_first) s2 = succ(s2);
        else s1 = pred(s1);
      }
      const int p = pred(s1), nx = succ(s2);
      const double removal_gain = d(p, s1) + d(s2, nx) - d(p, nx);
      if (removal_gain <= eps_) continue;
      const int first_pos = pos_[s1];
      for (int e : {s1, s2}) {
        if (len == 1 && e == s2) break;
        const int f = e == s1 ? s2 : s1;
        for (int c : neighbours_[e]) {
          const double d_ec = d(e, c);
          if (d_ec >= removal_gain - eps_) break;
          if ((pos_[c] - first_pos + n_) % n_ < len) continue;  // inside the segment
          // Between c and its successor y, e next to c: c e..f y.
          if (c != p) {
            const int y = succ(c);
            const double delta = d_ec + d(f, y) - d(c, y) - removal_gain;
            if (delta < -eps_) {
              move_segment(s1, s2, c, e == s2);
              length_ += delta;
              for (int v : {p, nx, s1, s2, c, y}) activate(v);
              return true;
            }
          }
          // Between c's predecessor x and c, e next to c: x f..e c.
          if (c != nx) {
            const int x = pred(c);
            const double delta = d(x, f) + d_ec - d(x, c) - removal_gain;
            if (delta < -eps_) {
              move_segment(s1, s2, x, e == s1);
              length_ += delta;
              for (int v : {p, nx, s1, s2, x, c}) activate(v);
              return true;
            }
          }
        }
      }
    }
  }
  return false;
}

void TspLocalSearch::move_segment(int s1, int s2, int x, bool reversed) {
  segment_.clear();
  for (int v = s1;; v = succ(v)) {
    segment_.push_back(v);
    if (v == s2) break;
  }
  if (reversed) std::reverse(segment_.begin(), segment_.end());
  buffer_.clear();
  // The rest of the tour in order (from s2's successor round to s1's predecessor), with the
  // segment spliced in after x.
  for (int v = succ(s2); v != s1; v = succ(v)) {
    buffer_.push_back(v);
    if (v == x) buffer_.insert(buffer_.end(), segment_.begin(), segment_.end());
  }
  tour_.swap(buffer_);
  for (int i = 0; i < n_; ++i) pos_[tour_[i]] = i;
}

void TspLocalSearch::reverse(int i, int j) {
  int len = (j - i + n_) % n_ + 1;
  if (2 * len > n_) {  // the complement is shorter and gives the same cycle
    const int ni = j + 1 == n_ ? 0 : j + 1;
    j = i == 0 ? n_ - 1 : i - 1;
    i = ni;
    len = n_ - len;
  }
  for (int k = 0; k < len / 2; ++k) {
    const int u = tour_[i], v = tour_[j];
    tour_[i] = v, pos_[v] = i;
    tour_[j] = u, pos_[u] = j;
    i = i + 1 == n_ ? 0 : i + 1;
    j = j == 0 ? n_ - 1 : j - 1;
  }
}

void TspLocalSearch::kick(Rng& rng, int max_segment) {
  // A = tour[start], then segments B (l1 nodes) and C (l2 nodes), then D: A B C D -> A C B D.
  // l1 + l2 <= n - 2 keeps A and D distinct, so the three exchanged edges are real.
  const int cap = std::clamp(max_segment, 1, (n_ - 2) / 2);
  const int l1 = rng.uniform_int(1, cap), l2 = rng.uniform_int(1, cap);
  const int start = rng.uniform_int(0, n_ - 1);
  auto at = [&](int offset) { return tour_[(start + offset) % n_]; };
  const int a = at(0), b1 = at(1), b2 = at(l1), c1 = at(l1 + 1), c2 = at(l1 + l2), dd = at(l1 + l2 + 1);
  length_ += d(a, c1) + d(c2, b1) + d(b2, dd) - d(a, b1) - d(b2, c1) - d(c2, dd);
  buffer_.clear();
  for (int k = 1; k <= l2; ++k) buffer_.push_back(at(l1 + k));
  for (int k = 1; k <= l1; ++k) buffer_.push_back(at(k));
  for (int k = 0; k < l1 + l2; ++k) {
    const int p = (start + 1 + k) % n_;
    tour_[p] = buffer_[k];
    pos_[buffer_[k]] = p;
  }
  for (int v : {a, b1, b2, c1, c2, dd}) activate(v);
}

}  // namespace falcon::solvers
