#pragma once
// Helpers of the MIS solver tests: an exact alpha for small graphs and a varied graph stream.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/problems/graph.h"
#include "falcon/problems/mis_mvc.h"

namespace falcon::solvers::testing {

// alpha of the subgraph induced by `candidates` (bitmask), n <= 32: branch on the lowest
// vertex, take it or not. Exponential, fine for the test sizes.
inline int alpha_of(const std::vector<std::uint32_t>& nb, std::uint32_t candidates) {
  if (candidates == 0) return 0;
  const int v = __builtin_ctz(candidates);
  const std::uint32_t rest = candidates & ~(1u << v);
  const int with = 1 + alpha_of(nb, rest & ~nb[v]);
  if ((rest & nb[v]) == 0) return with;  // v has no neighbour left: taking it is optimal
  return std::max(with, alpha_of(nb, rest));
}

inline int brute_force_alpha(const problems::Graph& g) {
  std::vector<std::uint32_t> nb(static_cast<std::size_t>(g.n), 0);
  for (const auto& [u, v] : g.edges) nb[u] |= 1u << v, nb[v] |= 1u << u;
  return alpha_of(nb, g.n == 32 ? ~0u : (1u << g.n) - 1);
}

inline bool independent(const problems::Graph& g, const std::vector<int>& set) {
  std::vector<char> in(static_cast<std::size_t>(g.n), 0);
  for (int v : set) {
    if (v < 0 || v >= g.n || in[v]) return false;
    in[v] = 1;
  }
  for (const auto& [u, v] : g.edges) {
    if (in[u] && in[v]) return false;
  }
  return true;
}

// Graph k of a varied stream: ER of any density, BA, and sparse ones (paths, cycles, trees
// with extra edges) on which every reduction fires. n in [1, max_n].
inline problems::Graph test_graph(int k, int max_n) {
  Rng rng = Rng::for_item(2024, static_cast<std::uint64_t>(k));
  const int n = rng.uniform_int(1, max_n);
  switch (k % 4) {
    case 0:
      return problems::erdos_renyi(n, rng.uniform(0.05, 0.8), rng);
    case 1:
      return n >= 3 ? problems::barabasi_albert(n, rng.uniform_int(1, 2), rng) : problems::erdos_renyi(n, 0.5, rng);
    default: {
      std::vector<std::pair<int, int>> edges;
      for (int v = 1; v < n; ++v) edges.emplace_back(rng.uniform_int(0, v - 1), v);  // a random tree
      const int extra = rng.uniform_int(0, n / 2 + 1);
      for (int i = 0; i < extra && n >= 2; ++i) {
        const int a = rng.uniform_int(0, n - 1), b = rng.uniform_int(0, n - 1);
        if (a != b) edges.emplace_back(a, b);
      }
      return problems::Graph::from_edges(n, std::move(edges));
    }
  }
}

}  // namespace falcon::solvers::testing
