#pragma once
// Nodes of a routing instance (TSP, OP, CVRP): optional coordinates and the full distance
// matrix. Generated instances use real Euclidean distances in the unit square (the paper);
// TSPLIB-family files use their own rule (nint-rounded EUC_2D, ATT, GEO, EXPLICIT), so the
// matrix, not the coordinates, is what every objective reads.
#include <string>
#include <vector>

#include "falcon/core/rng.h"

namespace falcon::problems {

struct Point {
  double x = 0;
  double y = 0;
};

struct RoutingGeometry {
  std::vector<Point> coords;     // may be empty for EXPLICIT-weight files
  std::vector<double> distance;  // n x n, row-major
  int n = 0;

  double d(int i, int j) const { return distance[static_cast<std::size_t>(i) * n + j]; }

  static RoutingGeometry euclidean(std::vector<Point> coords);  // real distances
  static RoutingGeometry from_matrix(std::vector<double> matrix, int n, std::vector<Point> coords = {});
};

// Length of the closed tour tour[0] -> ... -> tour[k-1] -> tour[0]; indices assumed valid.
double closed_tour_length(const RoutingGeometry& g, const std::vector<int>& tour);
// Length of depot -> path... -> depot (or start -> path -> end).
double path_length(const RoutingGeometry& g, int start, const std::vector<int>& path, int end);

// Coordinates of the paper's distributions in [0, 1)^2.
//   "uniform": i.i.d. uniform.
//   "gm" (Gaussian mixture): `modes` centres uniform in [0.1, 0.9]^2 (default 3–7 drawn per
//   instance), each point picks a centre and adds N(0, sigma^2) per axis (sigma 0.07 by
//   default), clamped into [0, 1). This follows the clustered setting of the generalisation
//   literature the paper's GM column cites.
std::vector<Point> sample_points(Rng& rng, int n, const std::string& distribution, int modes, double sigma);

// "i:(x,y)" clauses with the LLMCoSolver convention x = floor(1000 x) for unit-square
// coordinates; other coordinates are scaled into [0, 1000) by the largest extent first.
// `grid` replaces 1000 (the compact text style writes floor(100 x)).
std::vector<std::pair<int, int>> prompt_coordinates(const std::vector<Point>& coords, int grid = 1000);
// The factor prompt_coordinates multiplies lengths by (grid, or grid / largest extent; 1 without
// coordinates): what a length such as OP's budget is scaled by to be read beside them.
double prompt_scale(const std::vector<Point>& coords, int grid = 1000);

// For every node, its `k` nearest other nodes among those >= `first` (1: customers only), nearest
// first, ties broken by index so the lists are deterministic; k is capped at how many there are.
// The candidate lists of the local searches and of the compact text style.
std::vector<std::vector<int>> nearest_neighbours(const RoutingGeometry& geometry, int k, int first = 0);
// `candidates` by their distance from `from`, nearest first, ties to the smaller ID; the first
// `limit` of them (all by default). The ranked notes of the routing problems.
std::vector<int> nearest_first(const RoutingGeometry& geometry, int from, std::vector<int> candidates,
                               std::size_t limit = static_cast<std::size_t>(-1));

// The geometry seen through one symmetry: node i becomes relabel[i], and the points take one of
// the 8 symmetries of their bounding square (bit 0 mirrors x, bit 1 mirrors y, bit 2 swaps the
// axes; points in [0, 1)^2 stay there). Distances are carried over, not recomputed, so each one
// is the same bit for bit under any distance rule (a route's length only up to summation order).
RoutingGeometry symmetric_geometry(const RoutingGeometry& geometry, const std::vector<int>& relabel, int symmetry);

}  // namespace falcon::problems
