#pragma once
// Undirected simple graphs for MIS and MVC: the shared struct, the generators of the paper
// (Erdos-Renyi G(n, p), Barabasi-Albert), the complement, and the DIMACS reader used by the
// benchmark files (DIMACS .clq/.col and the BHOSLIB .mis files share its format).
#include <string>
#include <utility>
#include <vector>

#include "falcon/core/rng.h"

namespace falcon::problems {

struct Graph {
  int n = 0;
  std::vector<std::pair<int, int>> edges;  // u < v, sorted, no repeats
  std::vector<int> offsets;                // CSR: the neighbours of v are adj[offsets[v], offsets[v+1])
  std::vector<int> adj;                    // ascending per vertex

  // Normalises (u < v), sorts and merges repeated edges. Throws falcon::Error on a self-loop
  // or a vertex outside [0, n).
  static Graph from_edges(int n, std::vector<std::pair<int, int>> edges);

  struct Neighbors {
    const int* first;
    const int* last;
    const int* begin() const { return first; }
    const int* end() const { return last; }
  };
  Neighbors neighbors(int v) const { return {adj.data() + offsets[v], adj.data() + offsets[v + 1]}; }
  int degree(int v) const { return offsets[v + 1] - offsets[v]; }
  int m() const { return static_cast<int>(edges.size()); }
  bool adjacent(int u, int v) const;  // O(log degree)
};

// G(n, p): each of the n(n-1)/2 pairs independently with probability p.
Graph erdos_renyi(int n, double p, Rng& rng);
// Preferential attachment (networkx's barabasi_albert_graph): a star on vertices 0..m, then
// each new vertex joins m distinct earlier vertices drawn with probability proportional to
// degree. Needs 1 <= m < n.
Graph barabasi_albert(int n, int m, Rng& rng);
// Same vertices, exactly the pairs that are not edges: n(n-1)/2 - m edges.
Graph complement(const Graph& g);

// DIMACS ASCII graph: 'c' comments, one "p edge N M" (or "p col N M") line, then M lines
// "e U V" with 1-based vertices; CRLF and extra blanks are tolerated, a repeated edge is
// merged. M must equal the number of 'e' lines (or of distinct edges, for files that list
// both directions). Anything else — a malformed 'e' line, a vertex outside 1..N, a self-loop,
// an edge before the 'p' line, a count mismatch (a truncated file) — throws falcon::Error
// "FILE:LINE: what". Returns the graph as written: no complement is taken here.
Graph read_dimacs_graph(const std::string& path);

}  // namespace falcon::problems
