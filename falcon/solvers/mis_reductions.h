#pragma once
// Exact MIS reductions (kernelisation): rules that shrink a graph without changing alpha up to
// a known offset, and the way back from an independent set of the kernel to one of the input.
// Rules, applied to a fixpoint:
//   degree 0 and 1     take the vertex (and delete its neighbour);
//   degree 2, triangle take the vertex, delete both neighbours;
//   degree 2 folding   v with non-adjacent neighbours u, w: replace {v, u, w} by one vertex
//                      adjacent to N(u) + N(w) - v; alpha drops by exactly 1 (Chen et al.);
//   domination         u adjacent to v with N[v] a subset of N[u]: some MIS avoids u, delete u.
// They matter on sparse graphs (BA, low-p ER) and do nothing on the dense benchmark graphs.
#include <vector>

#include "falcon/problems/graph.h"

namespace falcon::solvers {

struct MisReduceOptions {
  bool fold_degree_two = true;
  bool domination = true;
};

struct MisKernel {
  problems::Graph graph;         // the reduced graph, vertices 0..k-1
  int offset = 0;                // alpha(input) = alpha(graph) + offset
  // Maps an independent set of `graph` to one of the input with offset more vertices
  // (ascending); an optimal one maps to an optimal one.
  std::vector<int> lift(const std::vector<int>& kernel_set) const;

  // Reconstruction data: "extended" ids are the input's 0..n-1 then one per fold.
  struct Fold {
    int v, u, w, merged;
  };
  int input_n = 0;
  int extended_n = 0;
  std::vector<int> extended_of;  // kernel vertex -> extended id
  std::vector<int> taken;        // extended ids fixed into the set
  std::vector<Fold> folds;       // in the order they were made
};

MisKernel reduce_mis(const problems::Graph& g, const MisReduceOptions& options = {});

// Connected components as sorted vertex lists, ordered by their smallest vertex.
std::vector<std::vector<int>> connected_components(const problems::Graph& g);
// The subgraph induced by `vertices` (sorted), renumbered 0..|vertices|-1 in that order.
problems::Graph induced_subgraph(const problems::Graph& g, const std::vector<int>& vertices);

}  // namespace falcon::solvers
