#include "falcon/solvers/tsp_local_search.h"

#include <algorithm>
#include <cmath>

#include "falcon/core/error.h"

namespace falcon::solvers {

TspLocalSearch::TspLocalSearch(const problems::RoutingGeometry& g, int candidates)
    : dist_(g.distance),
      n_(g.n),
      neighbours_(problems::nearest_neighbours(g, std::max(candidates, 1))),
      tour_(g.n),
      pos_(g.n),
      queue_(g.n),
      active_(g.n, 0) {
  if (n_ < 8) throw Error("TspLocalSearch needs at least 8 nodes (got " + std::to_string(n_) + ")");
  double largest = 0;
  for (double x : dist_) largest = std::max(largest, std::abs(x));
  eps_ = 1e-10 * std::max(largest, 1e-300);
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
    if (!try_two_opt(a) && !try_or_opt(a)) try_three_opt(a);
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

bool TspLocalSearch::try_three_opt(int t1) {
  // Remove (t1,t2), add (t2,t3), remove (t3,t4), add (t4,t5), remove (t5,t6), add (t6,t1), with
  // every partial gain positive (the Lin-Kernighan gain criterion). Directions are relative to
  // `fwd`, the side of t1 that t2 is on.
  for (int fwd = 1; fwd >= 0; --fwd) {
    const int t2 = step(t1, fwd);
    for (int t3 : neighbours_[t2]) {
      const double g1 = d(t1, t2) - d(t2, t3);
      if (g1 <= eps_) break;
      if (t3 == t1 || t3 == step(t2, fwd)) continue;  // (t2,t3) already a tour edge
      for (int closes = 0; closes < 2; ++closes) {
        // closes: t4 before t3, so (t4,t1) would close a 2-opt move and the third exchange
        // works on the path t4 .. t2 t3 .. t1. Otherwise t4 after t3 and (t2,t3) closes the
        // cycle t2 .. t3, which (t5,t6) must open.
        const int t4 = step(t3, closes ? !fwd : fwd);
        if (t4 == t1 || t4 == t2) continue;
        const double g1_open = g1 + d(t3, t4);
        for (int t5 : neighbours_[t4]) {
          const double g2 = g1_open - d(t4, t5);
          if (g2 <= eps_) break;
          if (t5 == t3 || t5 == t1) continue;
          int options[2] = {-1, -1};
          if (closes) {
            // t6 is t5's neighbour on the side of t4 along that path; (t5,t4) would be re-added.
            options[0] = step(t5, on_path(t2, t5, t4, fwd) ? fwd : !fwd);
            if (options[0] == t4) options[0] = -1;
          } else {
            if (!on_path(t2, t5, t3, fwd)) continue;  // t5 must be on the cycle
            options[0] = step(t5, fwd);
            options[1] = t5 == t2 ? -1 : step(t5, !fwd);
          }
          for (int t6 : options) {
            if (t6 < 0) continue;
            const double delta = d(t6, t1) - d(t5, t6) - g2;
            if (delta >= -eps_) continue;
            const int removed[3][2] = {{t1, t2}, {t3, t4}, {t5, t6}};
            const int added[3][2] = {{t2, t3}, {t4, t5}, {t6, t1}};
            exchange(removed, added);
            length_ += delta;
            for (int v : {t1, t2, t3, t4, t5, t6}) activate(v);
            return true;
          }
        }
      }
    }
  }
  return false;
}

void TspLocalSearch::exchange(const int removed[3][2], const int added[3][2]) {
  // The six endpoints' neighbours after the exchange; every other node keeps pred and succ.
  int node[6], adj[6][2], count = 0;
  auto slot = [&](int v) {
    for (int i = 0; i < count; ++i) {
      if (node[i] == v) return i;
    }
    node[count] = v, adj[count][0] = pred(v), adj[count][1] = succ(v);
    return count++;
  };
  for (int e = 0; e < 3; ++e) {
    for (int side = 0; side < 2; ++side) {
      const int i = slot(removed[e][side]), other = removed[e][1 - side];
      (adj[i][0] == other ? adj[i][0] : adj[i][1]) = -1;
    }
  }
  for (int e = 0; e < 3; ++e) {
    for (int side = 0; side < 2; ++side) {
      const int i = slot(added[e][side]);
      (adj[i][0] == -1 ? adj[i][0] : adj[i][1]) = added[e][1 - side];
    }
  }
  auto next = [&](int v, int from) {
    for (int i = 0; i < count; ++i) {
      if (node[i] == v) return adj[i][0] == from ? adj[i][1] : adj[i][0];
    }
    const int s = succ(v);
    return s == from ? pred(v) : s;
  };
  buffer_.clear();
  const int start = tour_[0];
  for (int prev = pred(start), v = start; buffer_.size() < static_cast<std::size_t>(n_);) {
    buffer_.push_back(v);
    const int w = next(v, prev);
    prev = v, v = w;
    if (v == start) break;
  }
  if (buffer_.size() != static_cast<std::size_t>(n_)) throw Error("TspLocalSearch: a 3-opt move broke the tour");
  tour_.swap(buffer_);
  for (int i = 0; i < n_; ++i) pos_[tour_[i]] = i;
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
