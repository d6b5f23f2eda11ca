#include "falcon/scoring/solution_svg.h"

#include <gtest/gtest.h>

#include "falcon/problems/registry.h"
#include "falcon/solvers/solver.h"

namespace falcon::scoring {
namespace {

int count(const std::string& text, const std::string& what) {
  int k = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++k;
  return k;
}

// Every problem draws its heuristic's solution (and a garbage one) as a well-formed SVG.
TEST(SolutionSvg, EveryProblemDrawsFeasibleAndGarbageSolutions) {
  for (auto name : problems::problem_names()) {
    const auto& problem = problems::problem_by_name(name);
    problems::GenerateOptions options;
    options.n = 12;
    const auto inst = problem.generate(options, 3);
    const auto* solver = solvers::solvers_for(name).front();
    const problems::Solution s = solver->solve(*inst, {});
    const std::string svg = render_solution_svg(problem, *inst, s, "t <1>");
    EXPECT_EQ(svg.rfind("<svg", 0), 0u) << name;
    EXPECT_NE(svg.find("</svg>"), std::string::npos) << name;
    EXPECT_NE(svg.find("t &lt;1&gt;"), std::string::npos) << name << ": title not escaped";
    const problems::Solution garbage{{{-5, 999, 0, 0}, {}}};
    EXPECT_NO_THROW(render_solution_svg(problem, *inst, garbage, "garbage")) << name;
  }
}

TEST(SolutionSvg, GanttHasOneBarPerOperation) {
  const auto& jssp = problems::problem_by_name("jssp");
  problems::GenerateOptions options;
  options.n = 4;
  options.params["m"] = "3";
  const auto inst = jssp.generate(options, 1);
  const auto s = solvers::solver_by_name("jssp", "spt").solve(*inst, {});
  const std::string svg = render_solution_svg(jssp, *inst, s, "x");
  EXPECT_EQ(count(svg, "<rect x="), 4 * 3);
  // The page ends below the chart's three rows (40 px each), not at the route maps' 640 px.
  EXPECT_NE(svg.find("height=\"224\""), std::string::npos) << svg.substr(0, 120);
}

}  // namespace
}  // namespace falcon::scoring
