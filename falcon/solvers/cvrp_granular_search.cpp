#include "falcon/solvers/cvrp_granular_search.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "falcon/problems/routing_geometry.h"

namespace falcon::solvers {
namespace {

using problems::cvrp::CvrpInstance;

constexpr double kInf = 1e300;
constexpr double kPi = 3.14159265358979323846;
constexpr int kCircle = 65536;  // polar angles are integers in [0, kCircle)

int positive_mod(int i) { return ((i % kCircle) + kCircle) % kCircle; }

// Inserts `items` right after `after` in `seq` (after = 0: at the front).
void insert_after(std::vector<int>& seq, int after, std::initializer_list<int> items) {
  auto at = after == 0 ? seq.begin() : std::find(seq.begin(), seq.end(), after) + 1;
  seq.insert(at, items);
}

void erase_value(std::vector<int>& seq, int value) { seq.erase(std::find(seq.begin(), seq.end(), value)); }

}  // namespace

void CvrpGranularSearch::ThreeBest::reset() {
  for (int k = 0; k < 3; ++k) cost[k] = kInf, after[k] = -1;
}

void CvrpGranularSearch::ThreeBest::add(double c, int after_node) {
  if (c >= cost[2]) return;
  int k = 2;
  while (k > 0 && c < cost[k - 1]) cost[k] = cost[k - 1], after[k] = after[k - 1], --k;
  cost[k] = c, after[k] = after_node;
}

CvrpGranularSearch::CvrpGranularSearch(const CvrpInstance& instance, int neighbours)
    : inst_(instance), n_(instance.size()) {
  const auto& g = inst_.geometry;
  has_coords_ = static_cast<int>(g.coords.size()) == n_;
  double max_d = 0;
  symmetric_ = true;
  for (int i = 0; i < n_; ++i) {
    for (int j = 0; j < n_; ++j) {
      max_d = std::max(max_d, g.d(i, j));
      if (std::abs(g.d(i, j) - g.d(j, i)) > 1e-9 * std::max(1.0, std::abs(g.d(i, j)))) symmetric_ = false;
    }
  }
  eps_ = 1e-10 * std::max(1.0, max_d);
  // Granular neighbourhood: the nearest customers of each, made symmetric.
  std::vector<std::set<int>> near(n_);
  const auto nearest = problems::nearest_neighbours(g, neighbours, /*first=*/1);
  for (int u = 1; u < n_; ++u)
    for (int v : nearest[u]) near[u].insert(v), near[v].insert(u);
  neighbours_.resize(n_);
  for (int u = 1; u < n_; ++u) neighbours_[u].assign(near[u].begin(), near[u].end());
  angle_.assign(n_, 0);
  if (has_coords_) {
    for (int u = 1; u < n_; ++u) {
      const double a = std::atan2(g.coords[u].y - g.coords[0].y, g.coords[u].x - g.coords[0].x);
      angle_[u] = positive_mod(static_cast<int>(32768.0 * a / kPi));
    }
  }
  const int max_routes = std::max(1, n_ - 1);  // every customer alone: enough for any split
  routes_.resize(max_routes);
  route_of_.assign(n_, 0);
  pos_of_.assign(n_, 0);
  cum_load_.assign(n_, 0);
  tested_.assign(n_, -1);
  delta_removal_.assign(n_, 0);
  best_insert_.resize(static_cast<std::size_t>(max_routes) * n_);
}

double CvrpGranularSearch::pen(long load) const {
  return load > inst_.capacity ? excess_penalty_ * static_cast<double>(load - inst_.capacity) : 0.0;
}

int CvrpGranularSearch::node_at(const Route& r, int p) const {
  return p <= 0 || p > static_cast<int>(r.seq.size()) ? 0 : r.seq[p - 1];
}

int CvrpGranularSearch::next_of(int route, int node) const {
  return node == 0 ? node_at(routes_[route], 1) : node_at(routes_[route], pos_of_[node] + 1);
}

void CvrpGranularSearch::set_u(int u) {
  u_ = u, ru_ = route_of_[u], pu_ = pos_of_[u];
  const Route& r = routes_[ru_];
  uprev_ = node_at(r, pu_ - 1);
  x_ = node_at(r, pu_ + 1);
  xnext_ = x_ == 0 ? 0 : node_at(r, pu_ + 2);
  qu_ = inst_.demands[u];
  qx_ = inst_.demands[x_];  // the depot's demand is 0
}

void CvrpGranularSearch::set_v(int route, int v) {
  v_ = v, rv_ = route, pv_ = v == 0 ? 0 : pos_of_[v];
  const Route& r = routes_[rv_];
  vprev_ = node_at(r, pv_ - 1);
  y_ = node_at(r, pv_ + 1);
  ynext_ = y_ == 0 ? 0 : node_at(r, pv_ + 2);
  qv_ = inst_.demands[v_];
  qy_ = inst_.demands[y_];
}

void CvrpGranularSearch::update_route(int r) {
  Route& route = routes_[r];
  long load = 0;
  for (int i = 0; i < static_cast<int>(route.seq.size()); ++i) {
    const int c = route.seq[i];
    route_of_[c] = r, pos_of_[c] = i + 1;
    load += inst_.demands[c];
    cum_load_[c] = load;
  }
  route.load = load;
  route.penalty = pen(load);
  route.modified = moves_;
  if (has_coords_ && !route.seq.empty()) {
    route.sector_start = route.sector_end = angle_[route.seq[0]];
    for (int c : route.seq) {  // grow the arc by the shorter side until it encloses c
      const int a = angle_[c];
      if (positive_mod(a - route.sector_start) <= positive_mod(route.sector_end - route.sector_start)) continue;
      if (positive_mod(a - route.sector_end) <= positive_mod(route.sector_start - a)) route.sector_end = a;
      else route.sector_start = a;
    }
  }
}

bool CvrpGranularSearch::sectors_overlap(const Route& a, const Route& b) const {
  if (!has_coords_) return true;
  return positive_mod(b.sector_start - a.sector_start) <= positive_mod(a.sector_end - a.sector_start) ||
         positive_mod(a.sector_start - b.sector_start) <= positive_mod(b.sector_end - b.sector_start);
}

void CvrpGranularSearch::apply(int ru, std::vector<int> seq_u, int rv, std::vector<int> seq_v) {
  ++moves_;
  completed_ = false;
  routes_[ru].seq = std::move(seq_u);
  update_route(ru);
  if (rv != ru) {
    routes_[rv].seq = std::move(seq_v);
    update_route(rv);
  }
}

// Relocate u after v.
bool CvrpGranularSearch::move1() {
  if (u_ == y_) return false;
  const auto& g = inst_.geometry;
  double cu = g.d(uprev_, x_) - g.d(uprev_, u_) - g.d(u_, x_);
  double cv = g.d(v_, u_) + g.d(u_, y_) - g.d(v_, y_);
  if (ru_ != rv_) {
    const Route &a = routes_[ru_], &b = routes_[rv_];
    if (cu + cv >= a.penalty + b.penalty) return false;
    cu += pen(a.load - qu_) - a.penalty;
    cv += pen(b.load + qu_) - b.penalty;
  }
  if (cu + cv > -eps_) return false;
  std::vector<int> su = routes_[ru_].seq;
  erase_value(su, u_);
  if (ru_ == rv_) {
    insert_after(su, v_, {u_});
    apply(ru_, std::move(su), ru_, {});
  } else {
    std::vector<int> sv = routes_[rv_].seq;
    insert_after(sv, v_, {u_});
    apply(ru_, std::move(su), rv_, std::move(sv));
  }
  return true;
}

// Relocate (u, x) after v, as (x, u) when `reversed`.
bool CvrpGranularSearch::move2(bool reversed) {
  if (u_ == y_ || (v_ != 0 && v_ == x_) || x_ == 0) return false;
  const auto& g = inst_.geometry;
  double cu, cv;
  if (!reversed) {
    cu = g.d(uprev_, xnext_) - g.d(uprev_, u_) - g.d(x_, xnext_);
    cv = g.d(v_, u_) + g.d(x_, y_) - g.d(v_, y_);
  } else {
    cu = g.d(uprev_, xnext_) - g.d(uprev_, u_) - g.d(u_, x_) - g.d(x_, xnext_);
    cv = g.d(v_, x_) + g.d(x_, u_) + g.d(u_, y_) - g.d(v_, y_);
  }
  if (ru_ != rv_) {
    const Route &a = routes_[ru_], &b = routes_[rv_];
    if (cu + cv >= a.penalty + b.penalty) return false;
    cu += pen(a.load - qu_ - qx_) - a.penalty;
    cv += pen(b.load + qu_ + qx_) - b.penalty;
  }
  if (cu + cv > -eps_) return false;
  std::vector<int> su = routes_[ru_].seq;
  su.erase(su.begin() + (pu_ - 1), su.begin() + (pu_ + 1));
  std::vector<int> sv = ru_ == rv_ ? std::vector<int>() : routes_[rv_].seq;
  std::vector<int>& target = ru_ == rv_ ? su : sv;
  if (reversed) insert_after(target, v_, {x_, u_});
  else insert_after(target, v_, {u_, x_});
  apply(ru_, std::move(su), rv_, std::move(sv));
  return true;
}

// Swap u and v.
bool CvrpGranularSearch::move4() {
  if (v_ == 0 || u_ == vprev_ || u_ == y_) return false;
  const auto& g = inst_.geometry;
  double cu = g.d(uprev_, v_) + g.d(v_, x_) - g.d(uprev_, u_) - g.d(u_, x_);
  double cv = g.d(vprev_, u_) + g.d(u_, y_) - g.d(vprev_, v_) - g.d(v_, y_);
  if (ru_ != rv_) {
    const Route &a = routes_[ru_], &b = routes_[rv_];
    if (cu + cv >= a.penalty + b.penalty) return false;
    cu += pen(a.load + qv_ - qu_) - a.penalty;
    cv += pen(b.load + qu_ - qv_) - b.penalty;
  }
  if (cu + cv > -eps_) return false;
  std::vector<int> su = routes_[ru_].seq;
  if (ru_ == rv_) {
    std::swap(su[pu_ - 1], su[pv_ - 1]);
    apply(ru_, std::move(su), ru_, {});
  } else {
    std::vector<int> sv = routes_[rv_].seq;
    std::swap(su[pu_ - 1], sv[pv_ - 1]);
    apply(ru_, std::move(su), rv_, std::move(sv));
  }
  return true;
}

// Swap (u, x) with v.
bool CvrpGranularSearch::move5() {
  if (v_ == 0 || x_ == 0 || u_ == vprev_ || x_ == vprev_ || u_ == y_) return false;
  const auto& g = inst_.geometry;
  double cu = g.d(uprev_, v_) + g.d(v_, xnext_) - g.d(uprev_, u_) - g.d(x_, xnext_);
  double cv = g.d(vprev_, u_) + g.d(x_, y_) - g.d(vprev_, v_) - g.d(v_, y_);
  if (ru_ != rv_) {
    const Route &a = routes_[ru_], &b = routes_[rv_];
    if (cu + cv >= a.penalty + b.penalty) return false;
    cu += pen(a.load + qv_ - qu_ - qx_) - a.penalty;
    cv += pen(b.load + qu_ + qx_ - qv_) - b.penalty;
  }
  if (cu + cv > -eps_) return false;
  auto rebuild = [&](const std::vector<int>& seq) {
    std::vector<int> out;
    for (int c : seq) {
      if (c == u_) out.push_back(v_);
      else if (c == v_) out.push_back(u_), out.push_back(x_);
      else if (c != x_) out.push_back(c);
    }
    return out;
  };
  std::vector<int> su = rebuild(routes_[ru_].seq);
  std::vector<int> sv = ru_ == rv_ ? std::vector<int>() : rebuild(routes_[rv_].seq);
  apply(ru_, std::move(su), rv_, std::move(sv));
  return true;
}

// Swap (u, x) with (v, y).
bool CvrpGranularSearch::move6() {
  if (v_ == 0 || x_ == 0 || y_ == 0 || y_ == uprev_ || u_ == y_ || x_ == v_ || v_ == xnext_) return false;
  const auto& g = inst_.geometry;
  double cu = g.d(uprev_, v_) + g.d(y_, xnext_) - g.d(uprev_, u_) - g.d(x_, xnext_);
  double cv = g.d(vprev_, u_) + g.d(x_, ynext_) - g.d(vprev_, v_) - g.d(y_, ynext_);
  if (ru_ != rv_) {
    const Route &a = routes_[ru_], &b = routes_[rv_];
    if (cu + cv >= a.penalty + b.penalty) return false;
    cu += pen(a.load + qv_ + qy_ - qu_ - qx_) - a.penalty;
    cv += pen(b.load + qu_ + qx_ - qv_ - qy_) - b.penalty;
  }
  if (cu + cv > -eps_) return false;
  auto rebuild = [&](std::vector<int> seq) {
    for (int& c : seq) {
      if (c == u_) c = v_;
      else if (c == x_) c = y_;
      else if (c == v_) c = u_;
      else if (c == y_) c = x_;
    }
    return seq;
  };
  std::vector<int> su = rebuild(routes_[ru_].seq);
  std::vector<int> sv = ru_ == rv_ ? std::vector<int>() : rebuild(routes_[rv_].seq);
  apply(ru_, std::move(su), rv_, std::move(sv));
  return true;
}

// 2-opt inside a route: reverse x..v.
bool CvrpGranularSearch::move7() {
  if (!symmetric_ || v_ == 0 || pu_ > pv_ || x_ == v_) return false;
  const auto& g = inst_.geometry;
  const double cost = g.d(u_, v_) + g.d(x_, y_) - g.d(u_, x_) - g.d(v_, y_);
  if (cost > -eps_) return false;
  std::vector<int> su = routes_[ru_].seq;
  std::reverse(su.begin() + pu_, su.begin() + pv_);
  apply(ru_, std::move(su), ru_, {});
  return true;
}

// 2-opt* joining the heads: (..u)(v..) and (..v)(x..) become ..u v.. reversed and ..x reversed y...
bool CvrpGranularSearch::move8() {
  if (!symmetric_) return false;
  const auto& g = inst_.geometry;
  const Route &a = routes_[ru_], &b = routes_[rv_];
  double cost = g.d(u_, v_) + g.d(x_, y_) - g.d(u_, x_) - g.d(v_, y_) - a.penalty - b.penalty;
  if (cost >= 0) return false;
  const long cu = cum_load_[u_], cv = v_ == 0 ? 0 : cum_load_[v_];
  cost += pen(cu + cv) + pen(a.load + b.load - cu - cv);
  if (cost > -eps_) return false;
  std::vector<int> su(a.seq.begin(), a.seq.begin() + pu_);
  su.insert(su.end(), b.seq.rend() - pv_, b.seq.rend());
  std::vector<int> sv(a.seq.rbegin(), a.seq.rend() - pu_);
  sv.insert(sv.end(), b.seq.begin() + pv_, b.seq.end());
  apply(ru_, std::move(su), rv_, std::move(sv));
  return true;
}

// 2-opt*: the routes exchange their tails after u and after v.
bool CvrpGranularSearch::move9() {
  const auto& g = inst_.geometry;
  const Route &a = routes_[ru_], &b = routes_[rv_];
  double cost = g.d(u_, y_) + g.d(v_, x_) - g.d(u_, x_) - g.d(v_, y_) - a.penalty - b.penalty;
  if (cost >= 0) return false;
  const long cu = cum_load_[u_], cv = v_ == 0 ? 0 : cum_load_[v_];
  cost += pen(cu + b.load - cv) + pen(cv + a.load - cu);
  if (cost > -eps_) return false;
  std::vector<int> su(a.seq.begin(), a.seq.begin() + pu_);
  su.insert(su.end(), b.seq.begin() + pv_, b.seq.end());
  std::vector<int> sv(b.seq.begin(), b.seq.begin() + pv_);
  sv.insert(sv.end(), a.seq.begin() + pu_, a.seq.end());
  apply(ru_, std::move(su), rv_, std::move(sv));
  return true;
}

void CvrpGranularSearch::preprocess_insertions(int r1, int r2) {
  const auto& g = inst_.geometry;
  const Route& a = routes_[r1];
  const Route& b = routes_[r2];
  for (int i = 0; i < static_cast<int>(a.seq.size()); ++i) {
    const int u = a.seq[i], p = node_at(a, i), s = node_at(a, i + 2);
    delta_removal_[u] = g.d(p, s) - g.d(p, u) - g.d(u, s);
    ThreeBest& tb = best_insert_[static_cast<std::size_t>(r2) * n_ + u];
    if (b.modified <= tb.computed) continue;  // route r2 unchanged since computed
    tb.reset();
    tb.computed = moves_;
    const int first = node_at(b, 1);
    tb.add(g.d(0, u) + g.d(u, first) - g.d(0, first), 0);
    for (int k = 0; k < static_cast<int>(b.seq.size()); ++k) {
      const int w = b.seq[k], nx = node_at(b, k + 2);
      tb.add(g.d(w, u) + g.d(u, nx) - g.d(w, nx), w);
    }
  }
}

// Cheapest insertion of u into v's route when v leaves it: the best of the three
// precomputed places not next to v, or v's own place.
double CvrpGranularSearch::cheapest_insert_removing(int u, int v, int& after) {
  const int rv = route_of_[v];
  const ThreeBest& tb = best_insert_[static_cast<std::size_t>(rv) * n_ + u];
  bool found = false;
  double best = kInf;
  for (int k = 0; k < 3 && tb.after[k] >= 0 && !found; ++k) {
    const int p = tb.after[k];
    if (p != v && next_of(rv, p) != v) found = true, best = tb.cost[k], after = p;
  }
  const auto& g = inst_.geometry;
  const int p = node_at(routes_[rv], pos_of_[v] - 1), s = node_at(routes_[rv], pos_of_[v] + 1);
  const double in_place = g.d(p, u) + g.d(u, s) - g.d(p, s);
  if (!found || in_place < best) best = in_place, after = p;
  return best;
}

bool CvrpGranularSearch::swap_star(int ru, int rv) {
  preprocess_insertions(ru, rv);
  preprocess_insertions(rv, ru);
  const Route &a = routes_[ru], &b = routes_[rv];
  struct Best {
    int u = -1, v = -1, after_u = -1, after_v = -1;  // after_* = -1: that customer stays
    double cost = kInf;
  } best;
  for (int u : a.seq) {
    for (int v : b.seq) {
      const long qu = inst_.demands[u], qv = inst_.demands[v];
      const double pen_a = pen(a.load + qv - qu) - a.penalty;
      const double pen_b = pen(b.load + qu - qv) - b.penalty;
      if (pen_a + delta_removal_[u] + pen_b + delta_removal_[v] > 0) continue;  // cannot improve
      int after_u = -1, after_v = -1;
      const double extra_b = cheapest_insert_removing(u, v, after_u);
      const double extra_a = cheapest_insert_removing(v, u, after_v);
      const double cost = pen_a + delta_removal_[u] + extra_a + pen_b + delta_removal_[v] + extra_b;
      if (cost < best.cost) best = {u, v, after_u, after_v, cost};
    }
  }
  // Plain relocations come for free from the same tables.
  for (int u : a.seq) {
    const ThreeBest& tb = best_insert_[static_cast<std::size_t>(rv) * n_ + u];
    const long q = inst_.demands[u];
    const double cost = delta_removal_[u] + tb.cost[0] + pen(a.load - q) - a.penalty + pen(b.load + q) - b.penalty;
    if (cost < best.cost) best = {u, -1, tb.after[0], -1, cost};
  }
  for (int v : b.seq) {
    const ThreeBest& tb = best_insert_[static_cast<std::size_t>(ru) * n_ + v];
    const long q = inst_.demands[v];
    const double cost = delta_removal_[v] + tb.cost[0] + pen(a.load + q) - a.penalty + pen(b.load - q) - b.penalty;
    if (cost < best.cost) best = {-1, v, -1, tb.after[0], cost};
  }
  if (best.cost > -eps_) return false;
  std::vector<int> sa = a.seq, sb = b.seq;
  if (best.after_u >= 0) erase_value(sa, best.u), insert_after(sb, best.after_u, {best.u});
  if (best.after_v >= 0) erase_value(sb, best.v), insert_after(sa, best.after_v, {best.v});
  apply(ru, std::move(sa), rv, std::move(sb));
  return true;
}

std::vector<std::vector<int>> CvrpGranularSearch::run(const std::vector<std::vector<int>>& routes,
                                                      double excess_penalty, Rng& rng) {
  excess_penalty_ = excess_penalty;
  moves_ = 0;
  const int max_routes = static_cast<int>(routes_.size());
  int r = 0;
  for (const auto& route : routes) {
    if (!route.empty()) routes_[r++].seq = route;
  }
  for (; r < max_routes; ++r) routes_[r].seq.clear();
  for (int k = 0; k < max_routes; ++k) {
    routes_[k].swap_tested = -1;
    update_route(k);
  }
  for (auto& tb : best_insert_) tb.computed = -1;
  std::fill(tested_.begin(), tested_.end(), -1);

  std::vector<int> order_nodes(std::max(0, n_ - 1)), order_routes(max_routes);
  std::iota(order_nodes.begin(), order_nodes.end(), 1);
  std::iota(order_routes.begin(), order_routes.end(), 0);
  rng.shuffle(order_nodes);
  rng.shuffle(order_routes);
  for (int u = 1; u < n_; ++u) {
    if (!neighbours_[u].empty() && rng.uniform_int(0, static_cast<int>(neighbours_[u].size()) - 1) == 0) {
      rng.shuffle(neighbours_[u]);
    }
  }

  completed_ = false;
  for (int loop = 0; !completed_; ++loop) {
    if (loop > 1) completed_ = true;  // moves into empty routes are only tried from the second loop
    for (int u : order_nodes) {
      const int last = tested_[u];
      tested_[u] = moves_;
      for (int v : neighbours_[u]) {
        if (loop > 0 && std::max(routes_[route_of_[u]].modified, routes_[route_of_[v]].modified) <= last) continue;
        set_u(u);
        set_v(route_of_[v], v);
        if (move1() || move2(false) || move2(true)) continue;
        if (u <= v && move4()) continue;
        if (move5()) continue;
        if (u <= v && move6()) continue;
        if (ru_ == rv_ && move7()) continue;
        if (ru_ != rv_ && (move8() || move9())) continue;
        if (vprev_ == 0) {  // v opens its route: also try u right after that route's depot
          set_v(rv_, 0);
          if (move1() || move2(false) || move2(true)) continue;
          if (ru_ != rv_ && (move8() || move9())) continue;
        }
      }
      if (loop > 0) {
        int empty = -1;
        for (int k = 0; k < max_routes && empty < 0; ++k) {
          if (routes_[k].seq.empty()) empty = k;
        }
        if (empty >= 0) {
          set_u(u);
          set_v(empty, 0);
          if (!(move1() || move2(false) || move2(true))) move9();
        }
      }
    }
    for (int a : order_routes) {
      if (routes_[a].seq.empty()) continue;
      const int last = routes_[a].swap_tested;
      routes_[a].swap_tested = moves_;
      for (int b : order_routes) {
        if (a >= b || routes_[a].seq.empty() || routes_[b].seq.empty()) continue;
        if (loop > 0 && std::max(routes_[a].modified, routes_[b].modified) <= last) continue;
        if (sectors_overlap(routes_[a], routes_[b])) swap_star(a, b);
      }
    }
  }

  std::vector<std::vector<int>> out;
  for (const Route& route : routes_) {
    if (!route.seq.empty()) out.push_back(route.seq);
  }
  return out;
}

}  // namespace falcon::solvers
