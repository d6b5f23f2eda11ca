#include "falcon/problems/routing_geometry.h"

#include <algorithm>
#include <cmath>

#include "falcon/core/error.h"

namespace falcon::problems {

RoutingGeometry RoutingGeometry::euclidean(std::vector<Point> coords) {
  const int n = static_cast<int>(coords.size());
  std::vector<double> m(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      m[static_cast<std::size_t>(i) * n + j] = std::hypot(coords[i].x - coords[j].x, coords[i].y - coords[j].y);
    }
  }
  return from_matrix(std::move(m), n, std::move(coords));
}

RoutingGeometry RoutingGeometry::from_matrix(std::vector<double> matrix, int n, std::vector<Point> coords) {
  RoutingGeometry g;
  g.n = n;
  g.distance = std::move(matrix);
  g.coords = std::move(coords);
  return g;
}

double closed_tour_length(const RoutingGeometry& g, const std::vector<int>& tour) {
  double total = 0;
  for (std::size_t i = 0; i < tour.size(); ++i) total += g.d(tour[i], tour[(i + 1) % tour.size()]);
  return total;
}

double path_length(const RoutingGeometry& g, int start, const std::vector<int>& path, int end) {
  double total = 0;
  int prev = start;
  for (int v : path) {
    total += g.d(prev, v);
    prev = v;
  }
  return total + g.d(prev, end);
}

std::vector<Point> sample_points(Rng& rng, int n, const std::string& distribution, int modes, double sigma) {
  std::vector<Point> pts(n);
  if (distribution.empty() || distribution == "uniform") {
    for (auto& p : pts) p = {rng.uniform(), rng.uniform()};
    return pts;
  }
  if (distribution == "gm" || distribution == "gaussian_mixture") {
    const int k = modes > 0 ? modes : rng.uniform_int(3, 7);
    std::vector<Point> centres(k);
    for (auto& c : centres) c = {rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9)};
    const double hi = std::nextafter(1.0, 0.0);
    for (auto& p : pts) {
      const Point& c = centres[rng.uniform_int(0, k - 1)];
      p = {std::clamp(c.x + sigma * rng.normal(), 0.0, hi), std::clamp(c.y + sigma * rng.normal(), 0.0, hi)};
    }
    return pts;
  }
  throw Error("unknown routing distribution '" + distribution + "' (use uniform or gm)");
}

namespace {
struct Extent {
  double lo_x, lo_y, hi_x, hi_y, extent;
  bool unit;  // inside [0, 1)^2: the paper's own coordinates, written as they are
};
Extent extent_of(const std::vector<Point>& coords) {
  double lo_x = coords[0].x, lo_y = coords[0].y, hi_x = lo_x, hi_y = lo_y;
  for (const auto& p : coords) {
    lo_x = std::min(lo_x, p.x), hi_x = std::max(hi_x, p.x);
    lo_y = std::min(lo_y, p.y), hi_y = std::max(hi_y, p.y);
  }
  return {lo_x, lo_y, hi_x, hi_y, std::max({hi_x - lo_x, hi_y - lo_y, 1e-12}), lo_x >= 0 && lo_y >= 0 && hi_x < 1 && hi_y < 1};
}
}  // namespace

double prompt_scale(const std::vector<Point>& coords, int grid) {
  if (coords.empty()) return 1.0;
  const Extent e = extent_of(coords);
  return e.unit ? grid : grid / e.extent;
}

std::vector<std::pair<int, int>> prompt_coordinates(const std::vector<Point>& coords, int grid) {
  std::vector<std::pair<int, int>> out;
  if (coords.empty()) return out;
  const Extent e = extent_of(coords);
  for (const auto& p : coords) {
    if (e.unit) {
      out.emplace_back(static_cast<int>(std::floor(grid * p.x)), static_cast<int>(std::floor(grid * p.y)));
    } else {
      const int x = std::min(grid - 1, static_cast<int>(std::floor(grid * (p.x - e.lo_x) / e.extent)));
      const int y = std::min(grid - 1, static_cast<int>(std::floor(grid * (p.y - e.lo_y) / e.extent)));
      out.emplace_back(x, y);
    }
  }
  return out;
}

std::vector<std::vector<int>> nearest_neighbours(const RoutingGeometry& geometry, int k, int first) {
  std::vector<std::vector<int>> out(geometry.n);
  std::vector<int> others;
  for (int i = 0; i < geometry.n; ++i) {
    others.clear();
    for (int j = std::max(first, 0); j < geometry.n; ++j)
      if (j != i) others.push_back(j);
    const auto keep = static_cast<std::ptrdiff_t>(std::min(others.size(), static_cast<std::size_t>(std::max(k, 0))));
    std::partial_sort(others.begin(), others.begin() + keep, others.end(), [&](int a, int b) {
      const double da = geometry.d(i, a), db = geometry.d(i, b);
      return da < db || (da == db && a < b);
    });
    out[i].assign(others.begin(), others.begin() + keep);
  }
  return out;
}

std::vector<int> nearest_first(const RoutingGeometry& geometry, int from, std::vector<int> candidates,
                               std::size_t limit) {
  const auto keep = static_cast<std::ptrdiff_t>(std::min(candidates.size(), limit));
  std::partial_sort(candidates.begin(), candidates.begin() + keep, candidates.end(), [&](int a, int b) {
    const double da = geometry.d(from, a), db = geometry.d(from, b);
    return da < db || (da == db && a < b);
  });
  candidates.resize(static_cast<std::size_t>(keep));
  return candidates;
}

RoutingGeometry symmetric_geometry(const RoutingGeometry& geometry, const std::vector<int>& relabel, int symmetry) {
  const int n = geometry.n;
  std::vector<Point> moved(geometry.coords.size());
  if (!geometry.coords.empty()) {
    // Mirror inside [lo, hi] per axis: for unit-square points [0, 1) maps onto itself.
    const Extent e = extent_of(geometry.coords);
    const double below_one = std::nextafter(1.0, 0.0);  // x -> below_one - x keeps [0, 1) in [0, 1)
    const double top_x = e.unit ? below_one : e.lo_x + e.hi_x, top_y = e.unit ? below_one : e.lo_y + e.hi_y;
    for (int i = 0; i < n; ++i) {
      Point p = geometry.coords[i];
      if (symmetry & 1) p.x = top_x - p.x;
      if (symmetry & 2) p.y = top_y - p.y;
      if (symmetry & 4) std::swap(p.x, p.y);
      moved[relabel[i]] = p;
    }
  }
  std::vector<double> distance(geometry.distance.size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) distance[static_cast<std::size_t>(relabel[i]) * n + relabel[j]] = geometry.d(i, j);
  return RoutingGeometry::from_matrix(std::move(distance), n, std::move(moved));
}

}  // namespace falcon::problems
