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

std::vector<std::pair<int, int>> prompt_coordinates(const std::vector<Point>& coords, int grid) {
  std::vector<std::pair<int, int>> out;
  if (coords.empty()) return out;
  double lo_x = coords[0].x, lo_y = coords[0].y, hi_x = lo_x, hi_y = lo_y;
  for (const auto& p : coords) {
    lo_x = std::min(lo_x, p.x), hi_x = std::max(hi_x, p.x);
    lo_y = std::min(lo_y, p.y), hi_y = std::max(hi_y, p.y);
  }
  const bool unit = lo_x >= 0 && lo_y >= 0 && hi_x < 1 && hi_y < 1;
  const double extent = std::max({hi_x - lo_x, hi_y - lo_y, 1e-12});
  for (const auto& p : coords) {
    if (unit) {
      out.emplace_back(static_cast<int>(std::floor(grid * p.x)), static_cast<int>(std::floor(grid * p.y)));
    } else {
      const int x = std::min(grid - 1, static_cast<int>(std::floor(grid * (p.x - lo_x) / extent)));
      const int y = std::min(grid - 1, static_cast<int>(std::floor(grid * (p.y - lo_y) / extent)));
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

}  // namespace falcon::problems
