#include "falcon/scoring/solution_svg.h"

#include <gtest/gtest.h>

#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/picture.h"
#include "falcon/problems/registry.h"
#include "falcon/problems/tsp.h"

namespace falcon::scoring {
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

// The picture highlights exactly the added edges, with a legend entry, and only when repair changed something.
TEST(SolutionSvgRepair, RouteMapHighlightsExactlyTheAddedEdges) {
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

TEST(SolutionSvgRepair, GraphMarksVerticesAddedAndDropped) {
  problems::GraphInstance inst;
  inst.graph = problems::Graph::from_edges(3, {{0, 1}});
  const auto& mis = problems::problem_by_name("mis");
  const Solution raw = Solution::flat({0, 1}), repaired = Solution::flat({0, 2});
  const std::string svg = render_solution_svg(mis, inst, repaired, "t", &raw);
  EXPECT_EQ(count(svg, "class=\"repair-added\""), 1);    // vertex 2
  EXPECT_EQ(count(svg, "class=\"repair-dropped\""), 1);  // vertex 1
}

TEST(SolutionSvgRepair, PfspOutlinesTheJobsRepairInserted) {
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

TEST(SolutionSvgRepair, JsspOutlinesTheOperationsRepairInsertedOrMoved) {
  const auto& jssp = problems::problem_by_name("jssp");
  problems::GenerateOptions options;
  options.n = 4;
  options.params["m"] = "3";
  const auto inst = jssp.generate(options, 1);
  // Machine 1 lacks job 3 and repeats job 0; machine 3 is missing altogether.
  const Solution raw{{{0, 1, 2, 3}, {0, 0, 1, 2}}};
  const Solution repaired = jssp.repair(*inst, raw);
  ASSERT_TRUE(jssp.feasible(*inst, repaired));
  const auto placed = problems::items_placed_by_repair(raw, repaired);
  ASSERT_GE(placed.size(), 1u + 4u);  // job 3 on machine 1, all four jobs on machine 2
  const std::string svg = render_solution_svg(jssp, *inst, repaired, "t", &raw);
  EXPECT_EQ(count(svg, "class=\"repair-added\""), static_cast<int>(placed.size()));
  EXPECT_NE(svg.find("operation inserted or moved by repair (" + std::to_string(placed.size()) + ")"),
            std::string::npos);
  // The raw sequence alone (no timetable) is drawn as repair makes it, with the same marks.
  EXPECT_EQ(render_solution_svg(jssp, *inst, raw, "t"), svg);
}

}  // namespace
}  // namespace falcon::scoring
