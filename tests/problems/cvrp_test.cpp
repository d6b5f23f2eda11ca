#include "falcon/problems/cvrp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/problems/cvrp_files.h"
#include "falcon/problems/list_ops.h"
#include "falcon/problems/registry.h"
#include "tests/problems/repair_properties.h"
#include "tests/benchmark_files.h"
#include "tests/error_of.h"

namespace falcon::problems::cvrp {
namespace {

using falcon::test_support::error_of;

const std::string kData = std::string(FALCON_FIXTURES_DIR) + "/cvrp/";
const std::string kBench = std::string(FALCON_BENCHMARKS_DIR) + "/cvrp/";

// Depot (0,0); customers 1:(0,1) q4, 2:(1,1) q6, 3:(1,0) q5, 4:(2,0) q5; capacity 10.
std::shared_ptr<CvrpInstance> tiny() {
  auto inst = std::make_shared<CvrpInstance>();
  inst->geometry = RoutingGeometry::euclidean({{0, 0}, {0, 1}, {1, 1}, {1, 0}, {2, 0}});
  inst->demands = {0, 4, 6, 5, 5};
  inst->capacity = 10;
  inst->name = "tiny";
  return inst;
}

Solution routes(std::vector<std::vector<int>> lists) { return Solution{std::move(lists)}; }

TEST(Cvrp, DefaultCapacityInterpolatesAndClamps) {
  EXPECT_EQ(default_capacity(5), 20);
  EXPECT_EQ(default_capacity(10), 20);
  EXPECT_EQ(default_capacity(15), 25);
  EXPECT_EQ(default_capacity(20), 30);
  EXPECT_EQ(default_capacity(30), 33);
  EXPECT_EQ(default_capacity(50), 40);
  EXPECT_EQ(default_capacity(75), 45);
  EXPECT_EQ(default_capacity(100), 50);
  EXPECT_EQ(default_capacity(500), 50);
}

TEST(Cvrp, GeneratorIsDeterministicWithDemandsInRange) {
  GenerateOptions opt;
  opt.n = 21;
  const auto a = generate(opt, 7), b = generate(opt, 7), c = generate(opt, 8);
  ASSERT_EQ(a->size(), 21);
  EXPECT_EQ(a->name, "cvrp-n21-s7");
  EXPECT_EQ(a->capacity, 30);
  EXPECT_EQ(a->demands, b->demands);
  EXPECT_EQ(a->geometry.distance, b->geometry.distance);
  EXPECT_NE(a->geometry.distance, c->geometry.distance);
  EXPECT_EQ(a->demands[0], 0);
  for (int v = 1; v < 21; ++v) {
    EXPECT_GE(a->demands[v], 1);
    EXPECT_LE(a->demands[v], 9);
  }
  opt.distribution = "gm";
  opt.params["capacity"] = "12";
  const auto gm = generate(opt, 3);
  EXPECT_EQ(gm->capacity, 12);
  EXPECT_EQ(gm->size(), 21);
}

TEST(Cvrp, GeneratorRejectsBadParameters) {
  GenerateOptions opt;
  opt.params["capacty"] = "30";
  EXPECT_NE(error_of([&] { generate(opt, 1); }).find("capacty"), std::string::npos);
  GenerateOptions small;
  small.params["capacity"] = "8";  // below the largest demand 9: some customer could never be served
  EXPECT_NE(error_of([&] { generate(small, 1); }).find("capacity=8"), std::string::npos);
  GenerateOptions one;
  one.n = 1;
  EXPECT_THROW(generate(one, 1), Error);
}

TEST(Cvrp, ValidateRejectsDemandAboveCapacity) {
  auto inst = tiny();
  inst->demands[2] = 11;
  EXPECT_NE(error_of([&] { validate(*inst); }).find("customer 2 has demand 11"), std::string::npos);
  EXPECT_NO_THROW(validate(*tiny()));
}

TEST(Cvrp, PromptIsPinned) {
  auto inst = tiny();
  inst->geometry = RoutingGeometry::euclidean({{0.5, 0.5}, {0.1234, 0.9}, {0.999, 0.0}});
  inst->demands = {0, 3, 9};
  inst->capacity = 30;
  EXPECT_EQ(prompt(*inst), "CVRP n=3 cap=30: 0:(500,500) 1:(123,900,3) 2:(999,0,9)");
}

TEST(Cvrp, ObjectiveFeasibilityAndText) {
  const auto inst = tiny();
  const Solution good = routes({{1, 2}, {3, 4}});
  EXPECT_NEAR(total_length(*inst, good), (1 + 1 + std::sqrt(2.0)) + (1 + 1 + 2), 1e-12);
  EXPECT_TRUE(feasible(*inst, good));
  EXPECT_EQ(problem().format(*inst, good), "Routes: [[1, 2], [3, 4]], Objective: 7.41");
  EXPECT_FALSE(feasible(*inst, routes({{1, 2, 3}, {4}})));       // load 15 > 10
  EXPECT_FALSE(feasible(*inst, routes({{1, 2}, {3}})));          // 4 missing
  EXPECT_FALSE(feasible(*inst, routes({{1, 2}, {3, 4}, {}})));   // empty route
  EXPECT_FALSE(feasible(*inst, routes({{1, 2}, {3, 0, 4}})));    // depot inside
  EXPECT_FALSE(feasible(*inst, routes({{1, 2}, {3, 4, 1}})));    // 1 twice
  EXPECT_FALSE(feasible(*inst, routes({})));
  EXPECT_TRUE(feasible(*inst, routes({{4, 3}, {2}, {1}})));
}

TEST(Cvrp, ViolationCountsEachDefect) {
  const auto inst = tiny();
  // [1, 0, 7] -> invalid 0 and 7; [1] duplicate -> route empty; [] empty; [2, 3, 4] load 16:
  // overload 3 - 1 = 2. Nothing missing.
  const ViolationCounts c = violation_counts(*inst, routes({{1, 0, 7}, {1}, {}, {2, 3, 4}}));
  EXPECT_EQ(c.invalid, 2);
  EXPECT_EQ(c.duplicates, 1);
  EXPECT_EQ(c.missing, 0);
  EXPECT_EQ(c.empty_routes, 2);
  EXPECT_EQ(c.overload, 2);
  EXPECT_EQ(violation(*inst, routes({})), 4);  // all customers missing
  EXPECT_EQ(violation(*inst, routes({{1, 2}, {3, 4}})), 0);
}

TEST(Cvrp, RepairKeepsFirstOccurrenceAcrossRoutesAndDropsDepotAndEmptyRoutes) {
  const auto inst = tiny();
  const Solution r = repair_routes(*inst, routes({{1, 0, 2}, {}, {2, 3, 4, 99}}));
  EXPECT_EQ(r, routes({{1, 2}, {3, 4}}));
}

TEST(Cvrp, RepairInsertsMissingCustomersWhereTheyFitOrOpensARoute) {
  const auto inst = tiny();
  // 3 (q5) fits only into [4] (load 5); cheapest there is before 4 (0->3->4->0 = 4).
  EXPECT_EQ(repair_routes(*inst, routes({{1, 2}, {4}})), routes({{1, 2}, {3, 4}}));
  // Nothing has room for 2 (q6): it opens its own route at the end.
  EXPECT_EQ(repair_routes(*inst, routes({{1, 3}, {4}})), routes({{1, 3}, {4}, {2}}));
  // No routes at all: the first missing customer opens one, the others follow by insertion.
  const Solution r = repair_routes(*inst, routes({{0, 0}}));
  EXPECT_TRUE(feasible(*inst, r)) << testing::debug_string(r);
}

TEST(Cvrp, RepairSplitsOverloadedRouteAtCheapestFittingPoint) {
  const auto inst = tiny();
  // [1, 2, 3, 4] loads 20. Prefixes that fit: [1] (4), [1, 2] (10). SplitCost after 1:
  // d(1,0)+d(0,2)-d(1,2) = 1 + 1.414 - 1; after 2: d(2,0)+d(0,3)-d(2,3) = 1.414 + 1 - 1: a tie,
  // broken towards the longer prefix; the suffix [3, 4] fits.
  EXPECT_EQ(repair_routes(*inst, routes({{1, 2, 3, 4}})), routes({{1, 2}, {3, 4}}));
  // The suffix stays next to its prefix, before the following routes.
  auto wide = tiny();
  wide->capacity = 6;
  wide->demands = {0, 1, 6, 5, 5};
  EXPECT_EQ(repair_routes(*wide, routes({{3, 4, 1}, {2}})), routes({{3}, {4, 1}, {2}}));
}

TEST(Cvrp, RepairIsIdentityOnFeasibleInput) {
  const auto inst = tiny();
  const Solution s = routes({{4, 3}, {2}, {1}});
  EXPECT_EQ(repair_routes(*inst, s), s);
}

TEST(Cvrp, RepairDistanceCountsSeparatorsAndIds) {
  EXPECT_EQ(repair_distance(routes({{1, 2}, {3, 4}}), routes({{1, 2, 3, 4}})), 1);  // one split
  EXPECT_EQ(repair_distance(routes({{1, 2}}), routes({{1, 2}, {}})), 1);           // an empty route
  EXPECT_EQ(repair_distance(routes({{1, 2}}), routes({})), 3);
  EXPECT_EQ(repair_distance(routes({{2, 1}}), routes({{1, 2}})), 2);
  EXPECT_EQ(repair_distance(routes({{1}}), routes({{1}})), 0);
}

TEST(Cvrp, GrammarRestrictsIdsToCustomersAndNeedsNonEmptyRoutes) {
  const auto inst = tiny();
  const GrammarSpec g = problem().grammar(*inst);
  EXPECT_TRUE(g.accepts("Routes: [[1, 2], [3, 4]], Objective: 7.41"));
  EXPECT_TRUE(g.accepts("Routes: [[4]], Objective: 4.00"));
  EXPECT_FALSE(g.accepts("Routes: [[0, 1]], Objective: 2.00"));
  EXPECT_FALSE(g.accepts("Routes: [[5]], Objective: 2.00"));
  EXPECT_FALSE(g.accepts("Routes: [[1], []], Objective: 2.00"));
  EXPECT_FALSE(g.accepts("Routes: [], Objective: 0.00"));
  const ParseResult p = problem().parse("Routes: [[1, 2], [3, 4]], Objective: 7.41");
  ASSERT_TRUE(p.solution.has_value());
  EXPECT_EQ(*p.solution, routes({{1, 2}, {3, 4}}));
  EXPECT_EQ(&problem_by_name("cvrp"), &problem());
}

// CVRP-specific adversarial inputs on top of the shared generator.
Solution random_feasible(Rng& rng, const CvrpInstance& inst) {
  std::vector<int> order;
  for (int v = 1; v < inst.size(); ++v) order.push_back(v);
  rng.shuffle(order);
  Solution s;
  int load = inst.capacity + 1;
  for (int v : order) {
    if (load + inst.demands[v] > inst.capacity || rng.bernoulli(0.15)) s.lists.emplace_back(), load = 0;
    s.lists.back().push_back(v);
    load += inst.demands[v];
  }
  return s;
}

Solution cvrp_adversarial(Rng& rng, const CvrpInstance& inst) {
  const int n = inst.size();
  Solution s = random_feasible(rng, inst);
  auto pick_route = [&] { return rng.uniform_int(0, static_cast<int>(s.lists.size()) - 1); };
  switch (rng.uniform_int(0, 11)) {
    case 0:  // feasible as is
      return s;
    case 1:  // all customers missing
      return rng.bernoulli(0.5) ? Solution{} : Solution{{{}, {0, 0}}};
    case 2:  // one giant route: heavily overloaded
      return Solution{{flatten(s.lists)}};
    case 3:  // adjacent routes merged: overloaded routes
      for (int m = rng.uniform_int(1, 3); m > 0 && s.lists.size() > 1; --m) {
        const int k = rng.uniform_int(0, static_cast<int>(s.lists.size()) - 2);
        s.lists[k].insert(s.lists[k].end(), s.lists[k + 1].begin(), s.lists[k + 1].end());
        s.lists.erase(s.lists.begin() + k + 1);
      }
      return s;
    case 4:  // customers in several routes
      for (int m = rng.uniform_int(1, 4); m > 0; --m) s.lists[pick_route()].push_back(rng.uniform_int(1, n - 1));
      return s;
    case 5:  // the depot inside routes
      for (int m = rng.uniform_int(1, 3); m > 0; --m) {
        auto& r = s.lists[pick_route()];
        r.insert(r.begin() + rng.uniform_int(0, static_cast<int>(r.size())), 0);
      }
      return s;
    case 6:  // empty routes
      for (int m = rng.uniform_int(1, 3); m > 0; --m) s.lists.insert(s.lists.begin() + pick_route(), std::vector<int>{});
      return s;
    case 7:  // whole routes dropped (missing customers)
      for (int m = rng.uniform_int(1, 2); m > 0 && !s.lists.empty(); --m) s.lists.erase(s.lists.begin() + pick_route());
      return s;
    case 8:  // customers moved between routes (may overload)
      for (int m = rng.uniform_int(1, 4); m > 0 && s.lists.size() > 1; --m) {
        auto& from = s.lists[pick_route()];
        if (from.empty()) continue;
        const int v = from.back();
        from.pop_back();
        s.lists[pick_route()].push_back(v);
      }
      return s;
    case 9: {  // everything at once
      Solution t = Solution{{flatten(s.lists)}};
      t.lists[0].push_back(0);
      t.lists[0].push_back(kIndexOverflow);
      t.lists.push_back({});
      t.lists.push_back({1, 1, -2});
      return t;
    }
    default:  // the shared generator's garbage
      return testing::adversarial_solution(rng, n, /*nested=*/true, 8);
  }
}

TEST(Cvrp, RepairPropertiesOnTwelveThousandAdversarialInputs) {
  Rng rng(2025);
  int feasible_inputs = 0, cases = 0;
  for (int k = 0; k < 24; ++k) {
    GenerateOptions opt;
    opt.n = k == 0 ? 2 : rng.uniform_int(3, 60);
    opt.distribution = k % 2 ? "gm" : "uniform";
    if (k % 3 == 0) opt.params["capacity"] = std::to_string(rng.uniform_int(9, 20));  // tight: many routes
    const auto inst = generate(opt, 300 + k);
    const auto stats = testing::check_repair_properties(problem(), *inst, 500, rng, [&](Rng& r) { return cvrp_adversarial(r, *inst); });
    feasible_inputs += stats.feasible_inputs;
    cases += stats.cases;
    if (HasFailure()) return;
  }
  EXPECT_EQ(cases, 12000);
  EXPECT_GT(feasible_inputs, 800);  // property (2) was exercised
}

TEST(Cvrp, RepairPropertiesOnBenchmarkInstances) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  // Integer (nint) distances, an EXPLICIT matrix (E-n13-k4) and demands in the thousands.
  Rng rng(7);
  for (const char* name : {"E-n13-k4", "A-n32-k5", "P-n16-k8"}) {
    const auto inst = read_file(kBench + "instances/" + name + ".vrp");
    const auto stats = testing::check_repair_properties(problem(), *inst, 400, rng, [&](Rng& r) { return cvrp_adversarial(r, *inst); });
    EXPECT_GT(stats.feasible_inputs, 10) << name;
    if (HasFailure()) return;
  }
}

// ---- CVRPLIB files --------------------------------------------------------------------------

TEST(CvrpFiles, DepotMovesToNodeZeroAndSolutionScores) {
  const auto inst = read_file(kData + "tiny-n5-k2.vrp");
  EXPECT_EQ(inst->name, "tiny-n5-k2");
  EXPECT_EQ(inst->vehicles, 2);
  EXPECT_EQ(inst->capacity, 10);
  EXPECT_EQ(inst->demands, (std::vector<int>{0, 4, 6, 5, 5}));  // file nodes 3, 1, 2, 4, 5
  EXPECT_DOUBLE_EQ(inst->geometry.coords[0].x, 0.0);
  EXPECT_DOUBLE_EQ(inst->geometry.coords[0].y, 0.0);
  EXPECT_DOUBLE_EQ(inst->geometry.d(0, 2), 14.0);  // nint(sqrt(200))
  const SolutionFile sol = read_solution(kData + "tiny-n5-k2.sol", *inst);
  EXPECT_EQ(sol.routes, routes({{1, 2}, {3, 4}}));
  ASSERT_TRUE(sol.cost.has_value());
  EXPECT_TRUE(feasible(*inst, sol.routes));
  EXPECT_DOUBLE_EQ(total_length(*inst, sol.routes), *sol.cost);
}

TEST(CvrpFiles, MalformedFilesNameFileAndLine) {
  const auto inst = read_file(kData + "tiny-n5-k2.vrp");
  const std::map<std::string, std::string> vrp = {
      {"demand_over_capacity.vrp:18", "exceeds the capacity 10"},
      {"depot_demand.vrp:16", "depot's demand must be 0"},
      {"fractional_demand.vrp:15", "not a non-negative integer"},
      {"bad_capacity.vrp:6", "CAPACITY 'ten'"},
      {"wrong_type.vrp:3", "expected CVRP"},
      {"two_depots.vrp:19", "2 depots"},
      {"no_capacity.vrp", "no 'CAPACITY : Q' line"},
      {"no_demands.vrp", "no DEMAND_SECTION"},
  };
  for (const auto& [where, what] : vrp) {
    const std::string file = where.substr(0, where.find(':'));
    const std::string message = error_of([&] { read_file(kData + file); });
    EXPECT_NE(message.find(kData + where + ": "), std::string::npos) << message;
    EXPECT_NE(message.find(what), std::string::npos) << message;
  }
  const std::map<std::string, std::string> sol = {
      {"customer_out_of_range.sol:2", "customer 9 is not in 1..4"},
      {"customer_not_integer.sol:2", "'x4' is not an integer"},
      {"bad_route_line.sol:2", "expected 'Route #<k>: <customer> ...'"},
      {"bad_cost.sol:3", "expected 'Cost <number>'"},
      {"two_costs.sol:4", "a second 'Cost' line"},
      {"unknown_line.sol:3", "got 'Time 1.0'"},
      {"no_routes.sol", "no 'Route #<k>:' lines"},
  };
  for (const auto& [where, what] : sol) {
    const std::string file = where.substr(0, where.find(':'));
    const std::string message = error_of([&] { read_solution(kData + file, *inst); });
    EXPECT_NE(message.find(kData + where + ": "), std::string::npos) << message;
    EXPECT_NE(message.find(what), std::string::npos) << message;
  }
  EXPECT_NE(error_of([&] { read_file(kData + "missing.vrp"); }).find("cannot open"), std::string::npos);
}

TEST(CvrpFiles, ExplicitMatrixFileHasNoCoordinatesInItsPrompt) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  const auto inst = read_file(kBench + "instances/E-n13-k4.vrp");
  EXPECT_EQ(inst->vehicles, 4);
  EXPECT_DOUBLE_EQ(inst->geometry.d(0, 1), 9.0);  // LOWER_ROW: first entry is d(2, 1) in file ids
  EXPECT_EQ(prompt(*inst).substr(0, 40), "CVRP n=13 cap=6000: 0:() 1:(1200) 2:(170");
}

TEST(CvrpFiles, VehiclesFromName) {
  EXPECT_EQ(vehicles_from_name("A-n32-k5"), 5);
  EXPECT_EQ(vehicles_from_name("X-n148-k46.vrp"), 46);
  EXPECT_EQ(vehicles_from_name("P-n55-k8.576-7routes.sol"), 8);
  EXPECT_EQ(vehicles_from_name("eil13"), 0);
  EXPECT_EQ(vehicles_from_name("cvrp-n20-s1"), 0);
}

struct BksRow {
  std::string set;
  int n = 0, k = 0, capacity = 0;
  double bks = 0;
};

// The README's value table: | instance | set | n | k | Q | BKS | ...
std::map<std::string, BksRow> read_bks_table() {
  std::ifstream in(kBench + "README.md");
  std::map<std::string, BksRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) {
      cell.erase(0, cell.find_first_not_of(' '));
      cell.erase(cell.find_last_not_of(' ') + 1);
      cells.push_back(cell);
    }
    if (cells.size() < 6 || cells[1].size() != 1 || std::string("ABEPX").find(cells[1]) == std::string::npos) continue;
    rows[cells[0]] = {cells[1], std::stoi(cells[2]), std::stoi(cells[3]), std::stoi(cells[4]), std::stod(cells[5])};
  }
  return rows;
}

TEST(CvrpFiles, EveryBenchmarkSolutionIsFeasibleAndScoresItsCostAndTheOptimum) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  const auto bks = read_bks_table();
  ASSERT_EQ(bks.size(), 109u) << "README table of " << kBench;
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kBench + "solutions")) {
    const std::string file = entry.path().filename().string();
    const std::string name = file.substr(0, file.find('.'));
    SCOPED_TRACE(file);
    ASSERT_TRUE(bks.count(name)) << "no README row for " << name;
    const BksRow& row = bks.at(name);
    const auto inst = read_file(kBench + "instances/" + name + ".vrp");
    EXPECT_EQ(inst->size(), row.n);
    EXPECT_EQ(inst->capacity, row.capacity);
    EXPECT_EQ(inst->vehicles, row.k);
    const SolutionFile sol = read_solution(entry.path().string(), *inst);
    EXPECT_TRUE(feasible(*inst, sol.routes)) << testing::debug_string(sol.routes);
    ASSERT_TRUE(sol.cost.has_value());
    const double length = total_length(*inst, sol.routes);
    EXPECT_EQ(length, *sol.cost);
    const int used = static_cast<int>(sol.routes.lists.size());
    if (name == "P-n55-k8") {
      // README: the BKS 588 is for exactly 8 routes; the stored file is a 7-route 576.
      EXPECT_EQ(length, 576);
      EXPECT_LT(length, row.bks);
      EXPECT_EQ(used, 7);
    } else {
      EXPECT_EQ(length, row.bks);
      if (row.set == "X") EXPECT_GE(used, row.k);  // unlimited fleet
      else EXPECT_EQ(used, row.k);                 // A/B/E/P optima use exactly k routes
    }
    ++checked;
  }
  EXPECT_EQ(checked, 109);
}

TEST(CvrpFiles, EveryBenchmarkInstanceHasItsDepotAtNodeZero) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  for (const auto& entry : std::filesystem::directory_iterator(kBench + "instances")) {
    const auto inst = read_file(entry.path().string());
    EXPECT_EQ(inst->demands[0], 0) << entry.path();
    EXPECT_GT(*std::min_element(inst->demands.begin() + 1, inst->demands.end()), 0) << entry.path();
  }
}

}  // namespace
}  // namespace falcon::problems::cvrp
