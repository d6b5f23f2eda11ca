#pragma once
// Reader for the TSPLIB95 file family: TSPLIB .tsp/.opt.tour, CVRPLIB .vrp, OPLib .oplib.
// One reader, because they share the KEY : VALUE header and the sections; each problem turns
// a TsplibFile into its own instance. Every error names file:line and what is wrong.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "falcon/problems/routing_geometry.h"

namespace falcon::problems {

struct TsplibFile {
  std::string path;
  std::map<std::string, std::string> header;  // NAME, TYPE, DIMENSION, CAPACITY, COST_LIMIT, ...
  int dimension = 0;
  RoutingGeometry geometry;  // distances by EDGE_WEIGHT_TYPE (EUC_2D nint, CEIL_2D, ATT, GEO, EXPLICIT)
  std::vector<double> demands;  // DEMAND_SECTION, 0-based by node (empty when absent)
  std::vector<double> scores;   // NODE_SCORE_SECTION (OPLib), 0-based by node
  std::vector<int> depots;      // DEPOT_SECTION, 0-based
  std::vector<int> tour;        // TOUR_SECTION (.opt.tour), 0-based

  const std::string& get(const std::string& key) const;  // throws naming the file when absent
};

// Throws falcon::Error "FILE:LINE: what" on anything malformed: unknown edge weight type,
// missing DIMENSION, a section shorter than DIMENSION, a node id out of range, non-numbers.
TsplibFile read_tsplib(const std::string& path);

// TsplibFile keeps the header but not its line numbers: the 1-based number of the first line
// whose trimmed text `match` accepts, else 0 (input_error then names the file only). For the
// semantic checks each problem's reader makes after read_tsplib accepted the syntax.
long find_tsplib_line(const std::string& path, const std::function<bool(const std::string&)>& match);

}  // namespace falcon::problems
