#include "falcon/solvers/op_route_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace falcon::solvers {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The three cheapest places (edges) to insert one node, cheapest first.
struct ThreeCheapest {
  double cost[3] = {kInf, kInf, kInf};
  int edge[3] = {-2, -2, -2};  // edge k joins node(k) and node(k + 1); -2 = none
  void add(double c, int k) {
    if (c >= cost[2]) return;
    int i = 2;
    while (i > 0 && c < cost[i - 1]) cost[i] = cost[i - 1], edge[i] = edge[i - 1], --i;
    cost[i] = c, edge[i] = k;
  }
};

}  // namespace

OpRouteSearch::OpRouteSearch(const problems::op::OpInstance& instance)
    : inst_(instance), g_(instance.geometry), n_(instance.size()) {
  double max_d = 0, total = 0;
  for (int i = 0; i < n_; ++i) {
    for (int j = 0; j < n_; ++j) {
      max_d = std::max(max_d, g_.d(i, j));
      if (std::abs(g_.d(i, j) - g_.d(j, i)) > 1e-9 * std::max(1.0, std::abs(g_.d(i, j)))) symmetric_ = false;
    }
    total += inst_.prizes[i];
  }
  eps_ = 1e-10 * std::max(1.0, max_d);
  prize_eps_ = 1e-9 * std::max(1.0, total);
  for (int v = 0; v < n_; ++v) {
    if (v != inst_.start && v != inst_.end && inst_.prizes[v] > 0) candidates_.push_back(v);
  }
  in_.assign(n_, 0);
}

int OpRouteSearch::node(const std::vector<int>& r, int k) const {
  return k < 0 ? inst_.start : k >= static_cast<int>(r.size()) ? inst_.end : r[k];
}

double OpRouteSearch::length_of(const std::vector<int>& r) const {
  return problems::path_length(g_, inst_.start, r, inst_.end);
}

double OpRouteSearch::detour(int a, int v, int b) const { return g_.d(a, v) + g_.d(v, b) - g_.d(a, b); }

void OpRouteSearch::recount(OpRoute& r) const {
  r.prize = 0;
  for (int v : r.nodes) r.prize += inst_.prizes[v];
  r.length = length_of(r.nodes);
}

OpRoute OpRouteSearch::make(std::vector<int> nodes) const {
  OpRoute r;
  r.nodes = std::move(nodes);
  recount(r);
  return r;
}

bool OpRouteSearch::better(const OpRoute& a, const OpRoute& b) const {
  if (a.prize > b.prize + prize_eps_) return true;
  return a.prize >= b.prize - prize_eps_ && a.length < b.length - eps_;
}

void OpRouteSearch::local_search(OpRoute& r, double noise, Rng& rng) {
  // Each pass gains prize or length, so the loop ends.
  for (bool changed = true; changed; noise = 0) {
    changed = fill(r, noise, rng) > 0;
    changed = shorten(r) || changed;
    changed = replace(r) || changed;
  }
}

int OpRouteSearch::fill(OpRoute& r, double noise, Rng& rng) {
  std::fill(in_.begin(), in_.end(), 0);
  for (int v : r.nodes) in_[v] = 1;
  std::vector<char> blocked(n_, 0);  // does not fit now; the route only grows in this call
  int inserted = 0;
  for (;;) {
    int best_v = -1, best_pos = 0;
    double best_score = -kInf;
    const int m = static_cast<int>(r.nodes.size());
    for (int v : candidates_) {
      if (in_[v] || blocked[v]) continue;
      int pos = 0;
      double cost = kInf;
      for (int k = -1; k < m; ++k) {
        const double c = detour(node(r.nodes, k), v, node(r.nodes, k + 1));
        if (c < cost) cost = c, pos = k + 1;
      }
      if (!problems::op::within_budget(inst_, r.length + cost)) {
        blocked[v] = 1;
        continue;
      }
      // A free insertion (rounded or non-metric distances) beats every ratio.
      double score = cost <= eps_ ? 1e300 * inst_.prizes[v] : inst_.prizes[v] / cost;
      if (noise > 0) score *= 1 + noise * rng.uniform();
      if (score > best_score) best_score = score, best_v = v, best_pos = pos;
    }
    if (best_v < 0) return inserted;
    r.nodes.insert(r.nodes.begin() + best_pos, best_v);
    // Re-sum rather than accumulate, so that feasible() (which re-sums) agrees exactly.
    const double length = length_of(r.nodes);
    if (!problems::op::within_budget(inst_, length)) {  // only by floating-point drift
      r.nodes.erase(r.nodes.begin() + best_pos);
      blocked[best_v] = 1;
      continue;
    }
    r.length = length;
    r.prize += inst_.prizes[best_v];
    in_[best_v] = 1;
    ++inserted;
  }
}

bool OpRouteSearch::shorten(OpRoute& r) const {
  const double before = r.length;
  for (bool again = true; again;) again = two_opt(r.nodes) || or_opt(r.nodes);
  r.length = length_of(r.nodes);
  return r.length < before - eps_;
}

bool OpRouteSearch::two_opt(std::vector<int>& r) const {
  if (!symmetric_) return false;
  bool any = false;
  const int m = static_cast<int>(r.size());
  for (int i = 0; i < m; ++i) {
    for (int j = i + 1; j < m; ++j) {
      const int a = node(r, i - 1), b = node(r, j + 1);
      if (g_.d(a, r[j]) + g_.d(r[i], b) - g_.d(a, r[i]) - g_.d(r[j], b) < -eps_) {
        std::reverse(r.begin() + i, r.begin() + j + 1);
        any = true;
      }
    }
  }
  return any;
}

bool OpRouteSearch::or_opt(std::vector<int>& r) const {
  bool any = false;
  for (int len = 1; len <= 3; ++len) {
    for (int i = 0; i + len <= static_cast<int>(r.size()); ++i) {
      const int m = static_cast<int>(r.size());
      const int first = r[i], last = r[i + len - 1];
      const int p = node(r, i - 1), s = node(r, i + len);
      const double gain = g_.d(p, first) + g_.d(last, s) - g_.d(p, s);
      if (gain <= eps_) continue;
      int best_k = -2;
      bool best_rev = false;
      double best = gain - eps_;
      for (int k = -1; k < m; ++k) {
        if (k >= i - 1 && k <= i + len - 1) continue;  // edges touching the run
        const int a = node(r, k), b = node(r, k + 1);
        const double fwd = g_.d(a, first) + g_.d(last, b) - g_.d(a, b);
        if (fwd < best) best = fwd, best_k = k, best_rev = false;
        if (symmetric_) {
          const double rev = g_.d(a, last) + g_.d(first, b) - g_.d(a, b);
          if (rev < best) best = rev, best_k = k, best_rev = true;
        }
      }
      if (best_k == -2) continue;
      std::vector<int> run(r.begin() + i, r.begin() + i + len);
      if (best_rev) std::reverse(run.begin(), run.end());
      std::vector<int> out;
      out.reserve(m);
      if (best_k == -1) out.insert(out.end(), run.begin(), run.end());
      for (int k = 0; k < m; ++k) {
        if (k >= i && k < i + len) continue;
        out.push_back(r[k]);
        if (k == best_k) out.insert(out.end(), run.begin(), run.end());
      }
      r = std::move(out);
      any = true;
    }
  }
  return any;
}

bool OpRouteSearch::replace(OpRoute& r) {
  const int m = static_cast<int>(r.nodes.size());
  if (m == 0) return false;
  std::fill(in_.begin(), in_.end(), 0);
  double least = kInf;  // no unvisited node below the least visited prize can gain
  for (int v : r.nodes) in_[v] = 1, least = std::min(least, inst_.prizes[v]);
  std::vector<int> outside;
  std::vector<ThreeCheapest> places;
  for (int w : candidates_) {
    if (in_[w] || inst_.prizes[w] < least - prize_eps_) continue;
    ThreeCheapest t;
    for (int k = -1; k < m; ++k) t.add(detour(node(r.nodes, k), w, node(r.nodes, k + 1)), k);
    outside.push_back(w);
    places.push_back(t);
  }
  int best_i = -1, best_w = -1, best_edge = -2;
  double best_gain = 0, best_len = r.length;
  for (int i = 0; i < m; ++i) {
    const int v = r.nodes[i], p = node(r.nodes, i - 1), q = node(r.nodes, i + 1);
    const double removal = detour(p, v, q);
    for (std::size_t j = 0; j < outside.size(); ++j) {
      const int w = outside[j];
      const double gain = inst_.prizes[w] - inst_.prizes[v];
      if (gain < -prize_eps_) continue;
      // Cheapest of: v's own place (edge -3), the best precomputed edge that survives v's removal.
      double cost = detour(p, w, q);
      int edge = -3;
      for (int t = 0; t < 3 && places[j].edge[t] != -2; ++t) {
        const int k = places[j].edge[t];
        if (k == i - 1 || k == i) continue;
        if (places[j].cost[t] < cost) cost = places[j].cost[t], edge = k;
        break;
      }
      const double len = r.length - removal + cost;
      if (!problems::op::within_budget(inst_, len)) continue;
      if (gain <= prize_eps_ && len >= r.length - eps_) continue;
      if (best_i < 0 || gain > best_gain + prize_eps_ || (gain >= best_gain - prize_eps_ && len < best_len - eps_)) {
        best_i = i, best_w = w, best_edge = edge, best_gain = gain, best_len = len;
      }
    }
  }
  if (best_i < 0) return false;
  std::vector<int> nodes = r.nodes;
  if (best_edge == -3) {
    nodes[best_i] = best_w;
  } else {
    const int after = node(r.nodes, best_edge);  // the node before the chosen edge
    nodes.erase(nodes.begin() + best_i);
    const int at = best_edge == -1 ? 0 : static_cast<int>(std::find(nodes.begin(), nodes.end(), after) - nodes.begin()) + 1;
    nodes.insert(nodes.begin() + at, best_w);
  }
  const double length = length_of(nodes);
  if (!problems::op::within_budget(inst_, length)) return false;  // only by floating-point drift
  r.prize += inst_.prizes[best_w] - inst_.prizes[r.nodes[best_i]];
  r.nodes = std::move(nodes);
  r.length = length;
  return true;
}

void OpRouteSearch::insert_cheapest(OpRoute& r, const std::vector<int>& extra) const {
  for (int v : extra) {
    const int m = static_cast<int>(r.nodes.size());
    int pos = 0;
    double cost = kInf;
    for (int k = -1; k < m; ++k) {
      const double c = detour(node(r.nodes, k), v, node(r.nodes, k + 1));
      if (c < cost) cost = c, pos = k + 1;
    }
    r.nodes.insert(r.nodes.begin() + pos, v);
  }
  recount(r);
}

void OpRouteSearch::drop(OpRoute& r, double noise, Rng& rng) const {
  r.length = length_of(r.nodes);
  int since_shortened = 0;
  while (!r.nodes.empty() && !problems::op::within_budget(inst_, r.length)) {
    const int m = static_cast<int>(r.nodes.size());
    int worst = 0;
    double worst_key = kInf;
    for (int i = 0; i < m; ++i) {
      const double saved = detour(node(r.nodes, i - 1), r.nodes[i], node(r.nodes, i + 1));
      // A node whose removal saves nothing goes last.
      double key = saved <= eps_ ? kInf : inst_.prizes[r.nodes[i]] / saved;
      if (noise > 0) key *= 1 + noise * rng.uniform();
      if (key < worst_key) worst_key = key, worst = i;
    }
    r.nodes.erase(r.nodes.begin() + worst);
    r.length = length_of(r.nodes);
    // Re-optimising the order now and then lets later removals see the true savings.
    if (++since_shortened >= std::max(1, m / 10)) {
      since_shortened = 0;
      for (bool again = true; again;) again = two_opt(r.nodes) || or_opt(r.nodes);
      r.length = length_of(r.nodes);
    }
  }
  recount(r);
}

void OpRouteSearch::perturb(OpRoute& r, Rng& rng) const {
  const int m = static_cast<int>(r.nodes.size());
  if (m == 0) return;
  const int count = rng.uniform_int(1, std::min(m, 1 + m / 4));
  std::vector<char> gone(m, 0);
  if (rng.uniform_int(0, 1) == 0) {  // a run, cyclically
    const int at = rng.uniform_int(0, m - 1);
    for (int k = 0; k < count; ++k) gone[(at + k) % m] = 1;
  } else {  // the nearest to a random visited node, itself included
    const int c = r.nodes[rng.uniform_int(0, m - 1)];
    std::vector<std::pair<double, int>> by_distance;
    for (int k = 0; k < m; ++k) by_distance.emplace_back(g_.d(c, r.nodes[k]), k);
    std::sort(by_distance.begin(), by_distance.end());
    for (int k = 0; k < count; ++k) gone[by_distance[k].second] = 1;
  }
  std::vector<int> keep;
  for (int k = 0; k < m; ++k) {
    if (!gone[k]) keep.push_back(r.nodes[k]);
  }
  r.nodes = std::move(keep);
  recount(r);
}

}  // namespace falcon::solvers
