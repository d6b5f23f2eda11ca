#include "falcon/solvers/tsp_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <numeric>

#include "falcon/solvers/solver.h"
#include "tests/benchmark_files.h"

namespace falcon::solvers {
namespace {

namespace fs = std::filesystem;
using problems::Point;
using problems::RoutingGeometry;
using problems::Solution;
using problems::tsp::TspInstance;

TspInstance generated(int n, const std::string& distribution, std::uint64_t seed) {
  problems::GenerateOptions opt;
  opt.n = n;
  opt.distribution = distribution;
  return *problems::tsp::generate(opt, seed);
}

TspInstance from_points(std::vector<Point> points) {
  TspInstance inst;
  inst.geometry = RoutingGeometry::euclidean(std::move(points));
  inst.name = "points";
  return inst;
}

TspReferenceOptions seeded(std::uint64_t seed, int kicks_per_node = 100) {
  TspReferenceOptions o;
  o.seed = seed;
  o.kicks_per_node = kicks_per_node;
  return o;
}

double length(const TspInstance& inst, const Solution& s) { return problems::tsp::tour_length(inst, s.items()); }

double brute_force_optimum(const TspInstance& inst) {
  std::vector<int> tour(inst.size());
  std::iota(tour.begin(), tour.end(), 0);
  double best = std::numeric_limits<double>::infinity();
  do best = std::min(best, problems::tsp::tour_length(inst, tour));
  while (std::next_permutation(tour.begin() + 1, tour.end()));
  return best;
}

void expect_tour_from_zero(const TspInstance& inst, const Solution& s) {
  ASSERT_TRUE(problems::tsp::feasible(inst, s)) << inst.name;
  EXPECT_EQ(s.items().front(), 0) << inst.name;
}

TEST(TspReference, OptimalOnSmallInstancesBothBelowAndAboveTheExhaustiveCutoff) {
  // n < 8 is enumerated; n >= 8 goes through the local search.
  for (int n : {3, 4, 5, 7, 8, 9, 10}) {
    for (std::uint64_t seed = 1; seed <= (n < 10 ? 3u : 1u); ++seed) {
      const TspInstance inst = generated(n, seed % 2 ? "uniform" : "gm", seed);
      const Solution s = tsp_reference(inst, seeded(seed));
      expect_tour_from_zero(inst, s);
      EXPECT_NEAR(length(inst, s), brute_force_optimum(inst), 1e-9) << inst.name;
    }
  }
}

TEST(TspReference, CoincidentNodesAreHandled) {
  // Pairs and triples of identical points (zero distances) and an all-identical instance.
  std::vector<Point> points = {{0, 0}, {1, 0}, {0, 0}, {1, 1}, {1, 0}, {0.5, 2}, {0, 0}, {1, 1}, {3, 1}, {0.5, 2}};
  const TspInstance dup = from_points(points);
  const Solution s = tsp_reference(dup, seeded(2));
  expect_tour_from_zero(dup, s);
  EXPECT_NEAR(length(dup, s), brute_force_optimum(dup), 1e-9);

  const TspInstance same = from_points(std::vector<Point>(20, Point{0.3, 0.7}));
  const Solution z = tsp_reference(same, seeded(1));
  expect_tour_from_zero(same, z);
  EXPECT_EQ(length(same, z), 0.0);

  // A larger clustered instance where every point appears twice.
  const TspInstance base = generated(40, "gm", 4);
  std::vector<Point> doubled = base.geometry.coords;
  doubled.insert(doubled.end(), base.geometry.coords.begin(), base.geometry.coords.end());
  const TspInstance twice = from_points(doubled);
  const Solution t = tsp_reference(twice, seeded(4));
  expect_tour_from_zero(twice, t);
  // Both have the same optimum (each twin next to its original costs nothing extra).
  EXPECT_LE(length(twice, t), 1.001 * length(base, tsp_reference(base, seeded(4))));
}

TEST(TspReference, DeterministicForASeedAndThroughTheRegistry) {
  const TspInstance inst = generated(40, "gm", 3);
  EXPECT_EQ(tsp_reference(inst, seeded(7)), tsp_reference(inst, seeded(7)));
  SolveOptions so;
  so.seed = 7;
  const SolverEntry& entry = solver_by_name("tsp", "reference");
  const Solution a = entry.solve(inst, so), b = entry.solve(inst, so);
  EXPECT_EQ(a, b);
  expect_tour_from_zero(inst, a);
}

TEST(TspReference, OptionsAndTimeCapStillGiveTours) {
  const TspInstance inst = generated(50, "uniform", 5);
  TspReferenceOptions o = seeded(5, 20);
  o.runs = 3;
  o.candidates = 1;
  o.accept_worse = 0;
  o.max_kick_segment = 1;
  expect_tour_from_zero(inst, tsp_reference(inst, o));
  TspReferenceOptions capped = seeded(5);
  capped.kicks = 1L << 40;  // only the cap can end this
  capped.time_limit_s = 0.02;
  expect_tour_from_zero(inst, tsp_reference(inst, capped));
}

TEST(TspReference, WithinTheTargetGapOnTsplibInstances) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  const std::string dir = std::string(FALCON_BENCHMARKS_DIR) + "/tsp/instances/";
  // Optima from the benchmark README (TSPLIB, nint distances).
  const std::vector<std::pair<std::string, double>> cases = {
      {"eil51", 426}, {"berlin52", 7542}, {"st70", 675}, {"kroA100", 21282}};
  double gap_sum = 0;
  for (const auto& [name, optimum] : cases) {
    const auto inst = problems::tsp::read_file(dir + name + ".tsp");
    const Solution s = tsp_reference(*inst, seeded(1));
    expect_tour_from_zero(*inst, s);
    const double f = length(*inst, s);
    EXPECT_GE(f, optimum) << name;  // never better than a proven optimum
    gap_sum += (f - optimum) / optimum;
  }
  EXPECT_LE(gap_sum / cases.size(), 0.001);  // mean gap <= 0.1%
}

}  // namespace
}  // namespace falcon::solvers
