#pragma once
// CVRPLIB files. Every error names file:line and what is wrong.
//
// .vrp: TSPLIB format with CAPACITY, DEMAND_SECTION and DEPOT_SECTION (read by read_tsplib).
//   The single depot is moved to node 0 and the other nodes keep their file order, so with the
//   usual depot = file node 1 node i here is file node i + 1.
// .sol: "Route #1: 20 5 25 ..." lines and a final "Cost 784" line. Customer ids are numbered
//   1..n-1 with the depot as 0 (file node id minus 1, CVRPLIB's convention), which is exactly
//   the node numbering of CvrpInstance; the depot is not written.
#include <optional>
#include <string>

#include "falcon/problems/cvrp.h"

namespace falcon::problems::cvrp {

std::shared_ptr<CvrpInstance> read_file(const std::string& path);

struct SolutionFile {
  Solution routes;
  std::optional<double> cost;  // the "Cost" line, when present
};

// Customer ids outside 1..n-1 of `instance` are errors; feasibility (duplicates, capacity) is
// left to cvrp::feasible, so that a checker can report it.
SolutionFile read_solution(const std::string& path, const CvrpInstance& instance);

// k of a CVRPLIB name "A-n32-k5" (also with a file extension), or 0 when there is none.
int vehicles_from_name(const std::string& name);

}  // namespace falcon::problems::cvrp
