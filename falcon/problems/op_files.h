#pragma once
// OP benchmark files (benchmarks/op/README.md):
//   OPLib `.oplib`: TSPLIB header + COST_LIMIT, NODE_SCORE_SECTION, DEPOT_SECTION; a closed
//     tour at the depot; distances by the TSPLIB EDGE_WEIGHT_TYPE (read through read_tsplib).
//   OPLib `.sol` (EA4OP): ROUTE_SCORE, ROUTE_COST, NODE_SEQUENCE_SECTION (depot first, -1 ends).
//   Tsiligirides/Chao `.txt`: "Tmax P" (P = 1), then "x y score" per point; point 1 is the
//     start, point 2 the end; real Euclidean distances.
// Every malformed file gives one falcon::Error "FILE:LINE: what".
#include <memory>
#include <string>

#include "falcon/problems/op.h"

namespace falcon::problems::op {

std::shared_ptr<OpInstance> read_oplib(const std::string& path);
std::shared_ptr<OpInstance> read_tsiligirides(const std::string& path);

struct OplibSolution {
  std::string name;
  double route_score = 0;  // ROUTE_SCORE as the file states it
  double route_cost = 0;   // ROUTE_COST
  double cost_limit = 0;   // COST_LIMIT
  int route_nodes = 0;     // ROUTE_NODES (depot included)
  std::vector<int> sequence;  // NODE_SEQUENCE_SECTION, 0-based, depot included
  int depot = 0;              // DEPOT_SECTION, 0-based (node 1 when absent)

  // The route in this project's convention: the visited nodes without the depot.
  Solution solution() const;
};

OplibSolution read_oplib_solution(const std::string& path);

}  // namespace falcon::problems::op
