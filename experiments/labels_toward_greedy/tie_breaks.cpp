// Is there anything to learn in the greedy's ties? Min-degree greedy for MIS on the training
// distribution of configs/data/mis50.yaml (ER n = 50, p = 0.15), its ties among the vertices of
// fewest free neighbours broken four ways, mean gap to the reference solver's optimum.
// Usage: tie_breaks COUNT
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/solvers/solver.h"

using falcon::problems::Graph;
namespace mis_mvc = falcon::problems::mis_mvc;

// The second key of a tied free vertex v (smaller first), given which vertices are free and
// each free vertex's free neighbours.
using TieBreak = std::function<double(const Graph&, int v, const std::vector<char>& free, const std::vector<int>& degree)>;

int greedy_size(const Graph& g, const TieBreak& tie_break) {
  std::vector<char> free(g.n, 1);
  int size = 0;
  for (;;) {
    std::vector<int> degree(g.n, 0);
    for (int v = 0; v < g.n; ++v)
      if (free[v])
        for (int w : g.neighbors(v)) degree[v] += free[w];
    int best = -1;
    double best_tie = 0;
    for (int v = 0; v < g.n; ++v) {
      if (!free[v]) continue;
      if (best >= 0 && degree[v] > degree[best]) continue;
      const double tie = tie_break(g, v, free, degree);
      if (best < 0 || degree[v] < degree[best] || tie < best_tie) best = v, best_tie = tie;
    }
    if (best < 0) return size;
    ++size;
    free[best] = 0;
    for (int w : g.neighbors(best)) free[w] = 0;
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: tie_breaks COUNT\n");
    return 2;
  }
  const int count = std::atoi(argv[1]);
  falcon::Rng rng(7);
  const std::vector<std::pair<const char*, TieBreak>> rules = {
      {"smallest ID (the ranked note's order)", [](const Graph&, int v, auto&, auto&) { return double(v); }},
      {"random", [&rng](const Graph&, int, auto&, auto&) { return rng.uniform(); }},
      {"most free neighbours' free neighbours",
       [](const Graph& g, int v, const std::vector<char>& free, const std::vector<int>& degree) {
         double sum = 0;
         for (int w : g.neighbors(v)) sum += free[w] ? degree[w] : 0;
         return -sum;
       }},
      {"most edges among its free neighbours",
       [](const Graph& g, int v, const std::vector<char>& free, const std::vector<int>&) {
         double edges = 0;
         for (int a : g.neighbors(v))
           if (free[a])
             for (int b : g.neighbors(a)) edges += b > a && free[b] && g.adjacent(v, b);
         return -edges;
       }},
  };
  const auto& reference = falcon::solvers::solver_by_name("mis", "reference");
  std::vector<double> gap(rules.size(), 0);
  for (int i = 0; i < count; ++i) {
    const auto instance = mis_mvc::generate({.n = 50, .params = {{"p", "0.15"}}}, 5000 + i, "mis");
    const int optimum = static_cast<int>(reference.solve(*instance, {}).items().size());
    for (std::size_t r = 0; r < rules.size(); ++r)
      gap[r] += double(optimum - greedy_size(instance->graph, rules[r].second)) / optimum;
  }
  std::printf("| min-degree greedy, ties broken by (%d ER-50 graphs) | mean gap |\n|---|---:|\n", count);
  for (std::size_t r = 0; r < rules.size(); ++r) std::printf("| %s | %.2f%% |\n", rules[r].first, 100 * gap[r] / count);
  return 0;
}
