#include "falcon/eval/repair_changes.h"

#include <gtest/gtest.h>

#include "falcon/eval/solution_svg.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/op.h"
#include "falcon/problems/registry.h"
#include "falcon/problems/tsp.h"

namespace falcon::eval {
namespace {

using problems::Solution;

int count(const std::string& text, const std::string& what) {
  int k = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++k;
  return k;
}

std::vector<problems::Point> pentagon() { return {{0, 0}, {2, 0}, {3, 2}, {1, 3}, {-1, 2}}; }

problems::tsp::TspInstance tsp_instance() {
  problems::tsp::TspInstance inst;
  inst.geometry = problems::RoutingGeometry::euclidean(pentagon());
  inst.name = "pentagon";
  return inst;
}

// Raw 0-1-1-3 (closed: edges 01, 13, 30; the repeat draws nothing) against the tour 0-1-2-3-4.
TEST(RepairChanges, TspAddedEdgesAreRepairedMinusRaw) {
  const auto inst = tsp_instance();
  const Solution raw = Solution::flat({0, 1, 1, 3}), repaired = Solution::flat({0, 1, 2, 3, 4});
  EXPECT_EQ(path_edges(route_paths(inst, raw)), (std::vector<Edge>{{0, 1}, {0, 3}, {1, 3}}));
  EXPECT_EQ(edges_added_by_repair(inst, raw, repaired), (std::vector<Edge>{{0, 4}, {1, 2}, {2, 3}, {3, 4}}));
  // Direction does not matter: the reversed tour adds nothing.
  EXPECT_TRUE(edges_added_by_repair(inst, repaired, Solution::flat({0, 4, 3, 2, 1})).empty());
}

TEST(RepairChanges, CvrpRoutesRunDepotToDepotAndSkipInvalidIds) {
  problems::cvrp::CvrpInstance inst;
  inst.geometry = problems::RoutingGeometry::euclidean({{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  // Raw 0-1-2-(9 dropped)-0 and 0-3-3-0; repaired 0-1-3-0 and 0-2-0: only 1-3 is new.
  const Solution raw{{{1, 2, 9}, {3, 3}}}, repaired{{{1, 3}, {2}}};
  EXPECT_EQ(edges_added_by_repair(inst, raw, repaired), (std::vector<Edge>{{1, 3}}));
}

TEST(RepairChanges, OpDroppedNodeLeavesAShortcut) {
  problems::op::OpInstance inst;
  inst.geometry = problems::RoutingGeometry::euclidean({{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  const Solution raw = Solution::flat({1, 2, 3}), repaired = Solution::flat({1, 3});
  EXPECT_EQ(edges_added_by_repair(inst, raw, repaired), (std::vector<Edge>{{1, 3}}));
  EXPECT_EQ(items_missing_from(raw, repaired), std::vector<int>{2});
  EXPECT_TRUE(items_missing_from(repaired, raw).empty());
}

// The picture highlights exactly the added edges, with a legend entry, and only when repair changed something.
TEST(RepairChanges, RouteMapHighlightsExactlyTheAddedEdges) {
  const auto inst = tsp_instance();
  const auto& tsp = problems::problem_by_name("tsp");
  const Solution raw = Solution::flat({0, 1, 1, 3}), repaired = Solution::flat({0, 1, 2, 3, 4});
  const std::string svg = render_solution_svg(tsp, inst, repaired, "t", &raw);
  EXPECT_EQ(count(svg, "<line class=\"repair-added\""), 4);
  EXPECT_NE(svg.find("added by repair (4)"), std::string::npos);
  const std::string plain = render_solution_svg(tsp, inst, repaired, "t");
  EXPECT_EQ(count(plain, "repair-added"), 0);
  EXPECT_EQ(plain.find("by repair"), std::string::npos);
  EXPECT_EQ(count(render_solution_svg(tsp, inst, repaired, "t", &repaired), "repair-added"), 0);
}

TEST(RepairChanges, GraphMarksVerticesAddedAndDropped) {
  problems::GraphInstance inst;
  inst.graph = problems::Graph::from_edges(3, {{0, 1}});
  const auto& mis = problems::problem_by_name("mis");
  const Solution raw = Solution::flat({0, 1}), repaired = Solution::flat({0, 2});
  const std::string svg = render_solution_svg(mis, inst, repaired, "t", &raw);
  EXPECT_EQ(count(svg, "class=\"repair-added\""), 1);    // vertex 2
  EXPECT_EQ(count(svg, "class=\"repair-dropped\""), 1);  // vertex 1
}

TEST(RepairChanges, PfspOutlinesTheJobsRepairInserted) {
  const auto& pfsp = problems::problem_by_name("pfsp");
  problems::GenerateOptions options;
  options.n = 4;
  options.params["m"] = "3";
  const auto inst = pfsp.generate(options, 1);
  const Solution raw = Solution::flat({2, 2}), repaired = pfsp.repair(*inst, raw);
  const std::string svg = render_solution_svg(pfsp, *inst, repaired, "t", &raw);
  EXPECT_EQ(count(svg, "class=\"repair-added\""), 3 * 3);  // jobs 0, 1, 3 on 3 machines
  EXPECT_NE(svg.find("job inserted by repair (3)"), std::string::npos);
}

TEST(RepairChanges, ItemsPlacedByRepairAreOutsideALongestCommonSubsequence) {
  const Solution raw{{{2, 0, 1}, {0, 0, 5}}};
  const Solution repaired{{{0, 1, 2}, {0, 1, 2}, {1, 0}}};
  // List 0: [0, 1] is kept in order, 2 moved; list 1: only one 0 matches; list 2 has no raw list.
  const std::vector<std::pair<int, int>> want{{0, 2}, {1, 1}, {1, 2}, {2, 0}, {2, 1}};
  EXPECT_EQ(items_placed_by_repair(raw, repaired), want);
  EXPECT_TRUE(items_placed_by_repair(repaired, repaired).empty());
}

TEST(RepairChanges, JsspOutlinesTheOperationsRepairInsertedOrMoved) {
  const auto& jssp = problems::problem_by_name("jssp");
  problems::GenerateOptions options;
  options.n = 4;
  options.params["m"] = "3";
  const auto inst = jssp.generate(options, 1);
  // Machine 1 lacks job 3 and repeats job 0; machine 3 is missing altogether.
  const Solution raw{{{0, 1, 2, 3}, {0, 0, 1, 2}}};
  const Solution repaired = jssp.repair(*inst, raw);
  ASSERT_TRUE(jssp.feasible(*inst, repaired));
  const auto placed = items_placed_by_repair(raw, repaired);
  ASSERT_GE(placed.size(), 1u + 4u);  // job 3 on machine 1, all four jobs on machine 2
  const std::string svg = render_solution_svg(jssp, *inst, repaired, "t", &raw);
  EXPECT_EQ(count(svg, "class=\"repair-added\""), static_cast<int>(placed.size()));
  EXPECT_NE(svg.find("operation inserted or moved by repair (" + std::to_string(placed.size()) + ")"),
            std::string::npos);
  // The raw sequence alone (no timetable) is drawn as repair makes it, with the same marks.
  EXPECT_EQ(render_solution_svg(jssp, *inst, raw, "t"), svg);
}

}  // namespace
}  // namespace falcon::eval
