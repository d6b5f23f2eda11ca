#include "falcon/solvers/aco.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>

#include "falcon/solvers/cvrp_heuristics.h"
#include "falcon/solvers/routing_heuristics.h"

namespace falcon::solvers {
namespace {

using problems::GenerateOptions;
using problems::Solution;

GenerateOptions sized(int n, const std::string& distribution = "uniform") {
  GenerateOptions opt;
  opt.n = n;
  opt.distribution = distribution;
  return opt;
}

AcoOptions quick(std::uint64_t seed, int iterations = 60) {
  AcoOptions o;
  o.seed = seed;
  o.iterations = iterations;
  return o;
}

double tsp_optimum(const problems::tsp::TspInstance& inst) {
  std::vector<int> tour(inst.size());
  std::iota(tour.begin(), tour.end(), 0);
  double best = std::numeric_limits<double>::infinity();
  do best = std::min(best, problems::tsp::tour_length(inst, tour));
  while (std::next_permutation(tour.begin() + 1, tour.end()));
  return best;
}

// Every CVRP solution is a customer order cut into routes, and the best cut of an order is a
// shortest path over its prefixes (Beasley's split): enumerate orders, split each optimally.
double cvrp_optimum(const problems::cvrp::CvrpInstance& inst) {
  const auto& g = inst.geometry;
  std::vector<int> order(inst.size() - 1);
  std::iota(order.begin(), order.end(), 1);
  const int m = static_cast<int>(order.size());
  double best = std::numeric_limits<double>::infinity();
  do {
    std::vector<double> cost(m + 1, std::numeric_limits<double>::infinity());
    cost[0] = 0;
    for (int i = 0; i < m; ++i) {
      int load = 0;
      double length = 0;
      for (int j = i; j < m; ++j) {
        load += inst.demands[order[j]];
        if (load > inst.capacity) break;
        length += j == i ? g.d(0, order[j]) : g.d(order[j - 1], order[j]);
        cost[j + 1] = std::min(cost[j + 1], cost[i] + length + g.d(order[j], 0));
      }
    }
    best = std::min(best, cost[m]);
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

TEST(TspAco, FindsTheOptimumOfSmallInstances) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto inst = problems::tsp::generate(sized(9), seed);
    const Solution s = tsp_aco(*inst, quick(seed));
    ASSERT_TRUE(problems::tsp::feasible(*inst, s));
    EXPECT_NEAR(problems::tsp::tour_length(*inst, s.items()), tsp_optimum(*inst), 1e-9) << inst->name;
  }
}

TEST(TspAco, DeterministicForASeedAndStartsAtNodeZero) {
  const auto inst = problems::tsp::generate(sized(40, "gm"), 3);
  const Solution a = tsp_aco(*inst, quick(11)), b = tsp_aco(*inst, quick(11));
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.items().front(), 0);
  SolveOptions so;
  so.seed = 11;
  const Solution c = solver_by_name("tsp", "aco").solve(*inst, so), d = solver_by_name("tsp", "aco").solve(*inst, so);
  EXPECT_EQ(c, d);
  EXPECT_TRUE(problems::tsp::feasible(*inst, c));
}

TEST(TspAco, BeatsNearestNeighborOnAverage) {
  double nn = 0, aco = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto inst = problems::tsp::generate(sized(60, seed % 2 ? "gm" : "uniform"), seed);
    nn += problems::tsp::tour_length(*inst, tsp_nearest_neighbor(*inst, {}).items());
    const Solution s = tsp_aco(*inst, quick(seed));
    ASSERT_TRUE(problems::tsp::feasible(*inst, s));
    aco += problems::tsp::tour_length(*inst, s.items());
  }
  EXPECT_LT(aco, 0.9 * nn);  // nearest neighbour is ~25% above optimal on random instances
}

TEST(TspAco, TinyInstancesAndOptionsStillGiveTours) {
  for (int n : {3, 4, 5}) {
    const auto inst = problems::tsp::generate(sized(n), 1);
    EXPECT_TRUE(problems::tsp::feasible(*inst, tsp_aco(*inst, quick(1, 5))));
  }
  const auto inst = problems::tsp::generate(sized(30), 2);
  AcoOptions plain = quick(2, 20);
  plain.local_search = false;
  plain.ants = 3;
  plain.candidates = 1;
  plain.alpha = 2;
  EXPECT_TRUE(problems::tsp::feasible(*inst, tsp_aco(*inst, plain)));
  AcoOptions timed = quick(2);
  timed.time_limit_s = 0.05;
  EXPECT_TRUE(problems::tsp::feasible(*inst, tsp_aco(*inst, timed)));
}

TEST(CvrpAco, FindsTheOptimumOfSmallInstances) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    GenerateOptions opt = sized(8);
    opt.params["capacity"] = "15";  // several routes
    const auto inst = problems::cvrp::generate(opt, seed);
    const Solution s = cvrp_aco(*inst, quick(seed));
    ASSERT_TRUE(problems::cvrp::feasible(*inst, s));
    EXPECT_NEAR(problems::cvrp::total_length(*inst, s), cvrp_optimum(*inst), 1e-9) << inst->name;
  }
}

TEST(CvrpAco, DeterministicForASeed) {
  const auto inst = problems::cvrp::generate(sized(40, "gm"), 5);
  EXPECT_EQ(cvrp_aco(*inst, quick(7, 20)), cvrp_aco(*inst, quick(7, 20)));
  SolveOptions so;
  so.seed = 7;
  so.time_limit_s = 0.05;  // honoured: returns a feasible solution after about that long
  EXPECT_TRUE(problems::cvrp::feasible(*inst, solver_by_name("cvrp", "aco").solve(*inst, so)));
}

TEST(CvrpAco, BeatsNearestNeighborOnAverage) {
  double nn = 0, aco = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto inst = problems::cvrp::generate(sized(50, seed % 2 ? "gm" : "uniform"), seed);
    nn += problems::cvrp::total_length(*inst, cvrp_nearest_neighbor(*inst, {}));
    const Solution s = cvrp_aco(*inst, quick(seed, 30));
    ASSERT_TRUE(problems::cvrp::feasible(*inst, s));
    aco += problems::cvrp::total_length(*inst, s);
  }
  EXPECT_LT(aco, 0.85 * nn);
}

TEST(CvrpAco, SingleCustomerAndPlainColony) {
  const auto one = problems::cvrp::generate(sized(2), 1);
  EXPECT_EQ(cvrp_aco(*one, quick(1, 3)), (Solution{{{1}}}));
  const auto inst = problems::cvrp::generate(sized(30), 4);
  AcoOptions plain = quick(4, 20);
  plain.local_search = false;
  EXPECT_TRUE(problems::cvrp::feasible(*inst, cvrp_aco(*inst, plain)));
}

}  // namespace
}  // namespace falcon::solvers
