#include "falcon/problems/picture.h"

#include <gtest/gtest.h>

#include "falcon/core/error.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/op.h"
#include "falcon/problems/registry.h"
#include "falcon/problems/tsp.h"

namespace falcon::problems {
namespace {

std::vector<Point> pentagon() { return {{0, 0}, {2, 0}, {3, 2}, {1, 3}, {-1, 2}}; }

tsp::TspInstance tsp_instance() {
  tsp::TspInstance inst;
  inst.geometry = RoutingGeometry::euclidean(pentagon());
  inst.name = "pentagon";
  return inst;
}

const RouteMap& route_map(const Picture& picture) { return std::get<RouteMap>(picture); }

// Raw 0-1-1-3 (closed: edges 01, 13, 30; the repeat draws nothing) against the tour 0-1-2-3-4.
TEST(Picture, TspAddedEdgesAreRepairedMinusRaw) {
  const auto inst = tsp_instance();
  const auto& tsp = problem_by_name("tsp");
  const Solution raw = Solution::flat({0, 1, 1, 3}), repaired = Solution::flat({0, 1, 2, 3, 4});
  EXPECT_EQ(path_edges(route_map(tsp.picture(inst, raw, nullptr)).paths), (std::vector<Edge>{{0, 1}, {0, 3}, {1, 3}}));
  const auto map = route_map(tsp.picture(inst, repaired, &raw));
  EXPECT_TRUE(map.shows_repair);
  EXPECT_EQ(map.added_by_repair, (std::vector<Edge>{{0, 4}, {1, 2}, {2, 3}, {3, 4}}));
  EXPECT_TRUE(map.dropped_by_repair.empty());
  // Direction does not matter: the reversed tour adds nothing.
  const Solution reversed = Solution::flat({0, 4, 3, 2, 1});
  EXPECT_TRUE(route_map(tsp.picture(inst, reversed, &repaired)).added_by_repair.empty());
  EXPECT_FALSE(route_map(tsp.picture(inst, repaired, nullptr)).shows_repair);
}

TEST(Picture, CvrpRoutesRunDepotToDepotAndSkipInvalidIds) {
  cvrp::CvrpInstance inst;
  inst.geometry = RoutingGeometry::euclidean({{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  // Raw 0-1-2-(9 dropped)-0 and 0-3-3-0; repaired 0-1-3-0 and 0-2-0: only 1-3 is new.
  const Solution raw{{{1, 2, 9}, {3, 3}}}, repaired{{{1, 3}, {2}}};
  const auto map = route_map(problem_by_name("cvrp").picture(inst, repaired, &raw));
  EXPECT_EQ(map.paths, (std::vector<std::vector<int>>{{0, 1, 3, 0}, {0, 2, 0}}));
  EXPECT_EQ(map.added_by_repair, (std::vector<Edge>{{1, 3}}));
  EXPECT_TRUE(map.dropped_by_repair.empty()) << "9 is no node: nothing to draw";
}

TEST(Picture, OpDroppedNodeLeavesAShortcut) {
  op::OpInstance inst;
  inst.geometry = RoutingGeometry::euclidean({{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  inst.prizes = {0, 1, 1, 1};
  const Solution raw = Solution::flat({1, 2, 3}), repaired = Solution::flat({1, 3});
  const auto map = route_map(problem_by_name("op").picture(inst, repaired, &raw));
  EXPECT_EQ(map.added_by_repair, (std::vector<Edge>{{1, 3}}));
  EXPECT_EQ(map.dropped_by_repair, std::vector<int>{2});
  EXPECT_EQ(items_missing_from(raw, repaired), std::vector<int>{2});
  EXPECT_TRUE(items_missing_from(repaired, raw).empty());
}

TEST(Picture, ItemsPlacedByRepairAreOutsideALongestCommonSubsequence) {
  const Solution raw{{{2, 0, 1}, {0, 0, 5}}};
  const Solution repaired{{{0, 1, 2}, {0, 1, 2}, {1, 0}}};
  // List 0: [0, 1] is kept in order, 2 moved; list 1: only one 0 matches; list 2 has no raw list.
  const std::vector<std::pair<int, int>> want{{0, 2}, {1, 1}, {1, 2}, {2, 0}, {2, 1}};
  EXPECT_EQ(items_placed_by_repair(raw, repaired), want);
  EXPECT_TRUE(items_placed_by_repair(repaired, repaired).empty());
}

// A registered problem with a picture draws a repaired empty answer with at least one change
// marked against it (when repair changed it).
TEST(Picture, EveryProblemDrawsARepairedEmptyAnswerWithItsChanges) {
  for (const auto name : problem_names()) {
    const Problem& problem = problem_by_name(name);
    GenerateOptions options;
    options.n = 6;
    const auto instance = problem.generate(options, 3);
    const Solution raw = problem.text_format().nested ? Solution{} : Solution::flat({});
    const Solution repaired = problem.repair(*instance, raw);
    Picture picture;
    try {
      picture = problem.picture(*instance, repaired, &raw);
    } catch (const Error& e) {  // a picture is optional: a problem without one says so by name
      EXPECT_NE(std::string(e.what()).find("no picture for problem '" + std::string(name) + "'"), std::string::npos);
      continue;
    }
    std::size_t changes = 0;
    if (const auto* map = std::get_if<RouteMap>(&picture)) changes = map->added_by_repair.size();
    if (const auto* chart = std::get_if<GanttChart>(&picture)) changes = chart->marked;
    if (const auto* graph = std::get_if<GraphSet>(&picture)) changes = graph->added_by_repair.size();
    if (repaired != raw) EXPECT_GT(changes, 0u) << name;
  }
}

}  // namespace
}  // namespace falcon::problems
