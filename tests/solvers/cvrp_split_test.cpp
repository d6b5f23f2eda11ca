#include "falcon/solvers/cvrp_split.h"

#include <gtest/gtest.h>

#include <limits>

#include "falcon/problems/cvrp.h"

namespace falcon::solvers {
namespace {

using problems::cvrp::CvrpInstance;

std::shared_ptr<CvrpInstance> generated(int n, std::uint64_t seed) {
  problems::GenerateOptions opt;
  opt.n = n;
  return problems::cvrp::generate(opt, seed);
}

TEST(CvrpSplit, HardCapacityGivesTheBestFeasibleCutting) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto inst = generated(12, seed);
    std::vector<int> tour;
    for (int v = 1; v < inst->size(); ++v) tour.push_back(v);
    const auto routes = split_giant_tour(*inst, tour, SplitOptions{});
    const problems::Solution s{routes};
    ASSERT_TRUE(problems::cvrp::feasible(*inst, s));
    std::vector<int> joined;
    for (const auto& r : routes) joined.insert(joined.end(), r.begin(), r.end());
    EXPECT_EQ(joined, tour);  // the tour's order, cut only
    // Every cutting of the 11 customers: 2^10 sets of cut points.
    const int m = static_cast<int>(tour.size());
    double best = std::numeric_limits<double>::infinity();
    for (int cuts = 0; cuts < 1 << (m - 1); ++cuts) {
      std::vector<std::vector<int>> rs(1);
      for (int i = 0; i < m; ++i) {
        if (i > 0 && (cuts >> (i - 1) & 1)) rs.emplace_back();
        rs.back().push_back(tour[i]);
      }
      const problems::Solution c{rs};
      if (problems::cvrp::feasible(*inst, c)) best = std::min(best, problems::cvrp::total_length(*inst, c));
    }
    EXPECT_NEAR(problems::cvrp::total_length(*inst, s), best, 1e-9);
  }
}

TEST(CvrpSplit, CheapExcessMakesOneRoute) {
  const auto inst = generated(8, 1);
  std::vector<int> tour = {1, 2, 3, 4, 5, 6, 7};
  // Load may reach 100 times the capacity at no cost: one route is never longer than several.
  const auto routes = split_giant_tour(*inst, tour, SplitOptions{0.0, 100.0});
  EXPECT_EQ(routes.size(), 1u);
}

}  // namespace
}  // namespace falcon::solvers
