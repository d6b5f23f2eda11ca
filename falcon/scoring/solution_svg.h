#pragma once
// Pictures of solutions, as standalone SVG (no dependencies, opens in any browser):
// routing problems as route maps, PFSP and JSSP as Gantt charts, MIS/MVC as a circular graph
// drawing with the chosen set highlighted. Infeasible solutions are drawn as they are.
//
// Given the model's raw solution (`before_repair`, when repair changed it), the picture marks
// what repair changed, with a legend entry:
//   TSP / CVRP / OP: edges the repaired solution has and the raw one lacks (problems/picture.h), dashed red;
//   MIS / MVC:       vertices repair added (red ring) or removed (dashed red circle);
//   PFSP:            jobs repair inserted (bars outlined red);
//   JSSP:            operations repair inserted or moved (bars outlined red): on each machine,
//                    those outside a longest common subsequence of the raw and repaired orders.
// A JSSP sequence with no timetable is drawn as repair makes it, marked the same way.
#include <string>

#include "falcon/problems/problem.h"

namespace falcon::scoring {

// Throws falcon::Error for a problem it cannot draw (e.g. a routing file without coordinates).
std::string render_solution_svg(const problems::Problem& problem, const problems::Instance& instance,
                                const problems::Solution& solution, const std::string& title,
                                const problems::Solution* before_repair = nullptr);

}  // namespace falcon::scoring
