#pragma once
// Exact maximum independent set by branch and bound: a maximum clique search on the complement
// graph with bitsets (BBMC, San Segundo et al. 2011) and the greedy colouring bound improved by
// MCS's re-colouring of the vertices that would otherwise need a new colour (Tomita et al.
// 2010). A colour class of the complement is a clique of the graph, so the bound is a clique
// cover of the candidates. Strong on the dense-complement graphs of the benchmarks (DIMACS,
// BHOSLIB are clique and MIS instances of density 0.1-0.4 in the MIS graph); weak on large very
// sparse graphs, which the reductions and the local search serve instead.
#include <chrono>
#include <vector>

#include "falcon/problems/graph.h"

namespace falcon::solvers {

struct MisBranchAndBoundOptions {
  // Budget in 64-bit word operations of the colourings, the bulk of the cost (a node with
  // candidates P costs 2 to 10 times |P| n/64 of them): it tracks time on sparse and dense
  // graphs alike, unlike a node count, and does not depend on the machine. 0 = unlimited.
  long long max_work = 0;
  // Hard wall-clock cap: when it triggers, the result depends on the machine's speed.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

struct MisBranchAndBoundResult {
  std::vector<int> set;         // the best independent set known: the incumbent unless improved
  bool proven_optimal = false;  // the search finished: no larger independent set exists
  long long nodes = 0;
  long long work = 0;
};

// `incumbent` must be an independent set of g (it may be empty); only strictly larger sets
// replace it, so a good incumbent prunes the tree and the search then only proves it.
MisBranchAndBoundResult mis_branch_and_bound(const problems::Graph& g, const std::vector<int>& incumbent,
                                             const MisBranchAndBoundOptions& options = {});

}  // namespace falcon::solvers
