#pragma once
// Travelling salesman (Appendix B.1). Solution text: "Route: [0, 5, 2, ...], Objective: x.xx",
// a permutation of 0..n-1; the return to the first node is implied.
#include <memory>
#include <string>
#include <vector>

#include "falcon/problems/problem.h"
#include "falcon/problems/routing_geometry.h"

namespace falcon::problems::tsp {

struct TspInstance : Instance {
  RoutingGeometry geometry;
  int size() const override { return geometry.n; }
};

// Keys: n, distribution (uniform | gm), modes, sigma.
std::shared_ptr<TspInstance> generate(const GenerateOptions& options, std::uint64_t seed);
std::shared_ptr<TspInstance> read_file(const std::string& path);  // TSPLIB .tsp
// TSPLIB .opt.tour as a Solution; throws naming the file when it is not a tour of `n` nodes.
Solution read_tour_file(const std::string& path, int n);
std::string prompt(const TspInstance& instance);
// The compact text style's prompt (formats/compact.h), `candidates` nearest neighbours per node.
std::string compact_prompt(const TspInstance& instance, int candidates);

double tour_length(const TspInstance& instance, const std::vector<int>& tour);  // skips invalid ids
bool feasible(const TspInstance& instance, const Solution& solution);
// invalid ids + duplicates + missing nodes (+1 when the solution is not exactly one list).
double violation(const TspInstance& instance, const Solution& solution);
// Appendix E.1: keep first occurrences, then cheapest insertion of each missing node.
std::vector<int> repair_tour(const TspInstance& instance, const std::vector<int>& tour);

// A relabelled, reflected / rotated copy with the tour carried along (Problem::symmetric_copy):
// node i becomes relabel[i], every point one symmetry of the unit square (coordinates outside it
// are mirrored about their bounding box instead), the tour starts at the new node 0 in a random
// direction. Euclidean distances, and so the objective, are unchanged (the copy's geometry is
// Euclidean: meant for generated instances, not TSPLIB's rounded or geographic metrics).
SymmetricCopy symmetric_copy(const TspInstance& instance, const Solution& tour, Rng& rng);

// The compact_ranked style's notes (formats/ranked.h): after each node, the kRankedNoteSize nodes
// not yet visited nearest it, nearest first ("#4#9#2#7#5"), ties to the smaller ID; after the
// last node, "". So the next node of a tour is one the note lists, or a jump the model must find
// itself (the reference solver's TSP-20/50 tours take one of the 5 nearest unvisited 98.5% / 99% of
// the time).
// Before any node the salesman stands at node 0, itself unvisited: an out-of-range first ID leaves
// "#0" and its 4 nearest. Ids out of range move nothing; a node visited again moves the salesman.
inline constexpr int kRankedNoteSize = 5;
EchoNotes ranked_notes(const TspInstance& instance, const Solution& tour);
// The compact_ranked style's order: the tour from node 0, toward the nearer of its two tour
// neighbours (nearest neighbour's first step), the same closed tour. A list without exactly one
// node 0 stays as it is.
Solution ranked_order(const TspInstance& instance, const Solution& tour);

const Problem& problem();

}  // namespace falcon::problems::tsp
