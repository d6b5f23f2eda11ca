#pragma once
// Pictures of solutions, as standalone SVG (no dependencies, opens in any browser):
// routing problems as route maps, PFSP and JSSP as Gantt charts, MIS/MVC as a circular graph
// drawing with the chosen set highlighted. Infeasible solutions are drawn as they are.
#include <string>

#include "falcon/problems/problem.h"

namespace falcon::eval {

// Throws falcon::Error for a problem it cannot draw (e.g. a routing file without coordinates).
std::string render_solution_svg(const problems::Problem& problem, const problems::Instance& instance,
                                const problems::Solution& solution, const std::string& title);

}  // namespace falcon::eval
