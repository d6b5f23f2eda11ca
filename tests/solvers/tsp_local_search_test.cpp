#include "falcon/solvers/tsp_local_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "falcon/core/error.h"

namespace falcon::solvers {
namespace {

using problems::Point;
using problems::RoutingGeometry;

// Integer (TSPLIB nint) distances on a small grid: many ties and coincident nodes, and a
// tracked length that must stay exact.
RoutingGeometry grid_instance(int n, int side, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Point> points(n);
  for (Point& p : points) p = {double(rng.uniform_int(0, side)), double(rng.uniform_int(0, side))};
  std::vector<double> matrix(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      matrix[static_cast<std::size_t>(i) * n + j] = std::floor(std::hypot(points[i].x - points[j].x, points[i].y - points[j].y) + 0.5);
    }
  }
  return RoutingGeometry::from_matrix(std::move(matrix), n, std::move(points));
}

std::vector<int> shuffled(int n, Rng& rng) {
  std::vector<int> tour(n);
  std::iota(tour.begin(), tour.end(), 0);
  rng.shuffle(tour);
  return tour;
}

bool is_permutation_of_nodes(const std::vector<int>& tour) {
  std::vector<char> seen(tour.size(), 0);
  for (int v : tour) {
    if (v < 0 || v >= static_cast<int>(tour.size()) || seen[v]) return false;
    seen[v] = 1;
  }
  return true;
}

TEST(TspLocalSearch, TracksTheExactLengthThroughMovesAndKicks) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const RoutingGeometry g = grid_instance(8 + static_cast<int>(seed) * 3, 2 + static_cast<int>(seed), seed);
    Rng rng(seed);
    TspLocalSearch search(g, 1 + static_cast<int>(seed % 12));
    search.reset(shuffled(g.n, rng));
    search.optimize();
    for (int k = 0; k < 30; ++k) {
      search.kick(rng, 1 + k);
      search.optimize();
      ASSERT_TRUE(is_permutation_of_nodes(search.tour()));
      ASSERT_EQ(search.length(), problems::closed_tour_length(g, search.tour())) << "seed " << seed;
    }
  }
}

TEST(TspLocalSearch, FullCandidateListsGiveATwoOptOptimum) {
  // With every node a candidate, the neighbour-list search misses no improving 2-opt move.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const RoutingGeometry g = grid_instance(40, 100, seed);
    Rng rng(seed);
    TspLocalSearch search(g, g.n - 1);
    search.reset(shuffled(g.n, rng));
    search.optimize();
    const std::vector<int>& t = search.tour();
    for (int i = 0; i < g.n; ++i) {
      for (int j = i + 2; j < g.n; ++j) {
        const int a = t[i], b = t[i + 1], c = t[j], d = t[(j + 1) % g.n];
        if (d == a) continue;
        EXPECT_GE(g.d(a, c) + g.d(b, d), g.d(a, b) + g.d(c, d)) << "seed " << seed << " i " << i << " j " << j;
      }
    }
  }
}

TEST(TspLocalSearch, RejectsInstancesBelowEightNodes) {
  EXPECT_THROW(TspLocalSearch(grid_instance(7, 5, 1), 5), Error);
}

}  // namespace
}  // namespace falcon::solvers
