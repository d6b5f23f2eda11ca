// Is there anything to learn in the greedy's ties? Min-degree greedy for MIS on the training
// distribution of configs/data/mis50.yaml (ER n = 50, p = 0.15), its ties among the vertices of
// fewest free neighbours broken four ways, mean gap to the reference solver's optimum; and
// max-degree greedy for MVC on the same graphs, its ties among the vertices of most uncovered
// edges broken by their neighbours' uncovered edges.
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

// Max-degree greedy's cover size, ties among the most uncovered edges broken by `tie` (smaller
// first) of each vertex's neighbours' uncovered-edge counts.
int cover_size(const Graph& g, const std::function<double(int v, const std::vector<int>& uncovered)>& tie) {
  std::vector<char> in_cover(g.n, 0);
  int size = 0;
  for (;;) {
    std::vector<int> uncovered(g.n, 0);
    for (int v = 0; v < g.n; ++v)
      if (!in_cover[v])
        for (int w : g.neighbors(v)) uncovered[v] += !in_cover[w];
    int best = -1;
    double best_tie = 0;
    for (int v = 0; v < g.n; ++v) {
      if (in_cover[v] || uncovered[v] == 0 || (best >= 0 && uncovered[v] < uncovered[best])) continue;
      const double t = tie(v, uncovered);
      if (best < 0 || uncovered[v] > uncovered[best] || t < best_tie) best = v, best_tie = t;
    }
    if (best < 0) return size;
    in_cover[best] = 1;
    ++size;
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

  const auto& mvc_reference = falcon::solvers::solver_by_name("mvc", "reference");
  auto neighbours_sum = [](const Graph& g, int v, const std::vector<int>& uncovered) {
    double sum = 0;
    for (int w : g.neighbors(v)) sum += uncovered[w];
    return sum;
  };
  const std::vector<std::pair<const char*, std::function<double(const Graph&, int, const std::vector<int>&)>>> cover_rules = {
      {"smallest ID (the ranked note's order)", [](const Graph&, int v, auto&) { return double(v); }},
      {"random", [&rng](const Graph&, int, auto&) { return rng.uniform(); }},
      {"most uncovered edges at its neighbours (the two-hop key)", [&](const Graph& g, int v, auto& u) { return -neighbours_sum(g, v, u); }},
      {"fewest uncovered edges at its neighbours", [&](const Graph& g, int v, auto& u) { return neighbours_sum(g, v, u); }},
  };
  std::vector<double> cover_gap(cover_rules.size(), 0);
  for (int i = 0; i < count; ++i) {
    const auto instance = mis_mvc::generate({.n = 50, .params = {{"p", "0.15"}}}, 5000 + i, "mvc");
    const int optimum = static_cast<int>(mvc_reference.solve(*instance, {}).items().size());
    for (std::size_t r = 0; r < cover_rules.size(); ++r) {
      const Graph& g = instance->graph;
      const auto& rule = cover_rules[r].second;
      cover_gap[r] += double(cover_size(g, [&](int v, const std::vector<int>& u) { return rule(g, v, u); }) - optimum) / optimum;
    }
  }
  std::printf("\n| max-degree greedy, ties broken by (%d ER-50 graphs) | mean gap |\n|---|---:|\n", count);
  for (std::size_t r = 0; r < cover_rules.size(); ++r)
    std::printf("| %s | %.2f%% |\n", cover_rules[r].first, 100 * cover_gap[r] / count);
  return 0;
}
