#include "falcon/solvers/graph_heuristics.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

#include "falcon/problems/mis_mvc.h"

namespace falcon::solvers {

std::vector<int> min_degree_independent_set(const problems::Graph& g) {
  std::vector<char> alive(static_cast<std::size_t>(g.n), 1);
  std::vector<int> degree(static_cast<std::size_t>(g.n));
  // Min-heap of (degree, vertex); a vertex is pushed again whenever its degree drops, and an
  // entry whose degree is no longer current is skipped.
  using Entry = std::pair<int, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  for (int v = 0; v < g.n; ++v) {
    degree[v] = g.degree(v);
    heap.push({degree[v], v});
  }
  std::vector<int> set;
  while (!heap.empty()) {
    const auto [d, v] = heap.top();
    heap.pop();
    if (!alive[v] || d != degree[v]) continue;
    set.push_back(v);
    alive[v] = 0;
    for (int u : g.neighbors(v)) alive[u] = alive[u] ? 2 : 0;  // 2: deleted in this step
    for (int u : g.neighbors(v)) {
      if (alive[u] != 2) continue;
      alive[u] = 0;
      for (int w : g.neighbors(u)) {
        if (alive[w] == 1) heap.push({--degree[w], w});
      }
    }
  }
  std::sort(set.begin(), set.end());
  return set;
}

namespace {

// The greedy of `state`, each step taking the first vertex of two_hop_preference. Ascending.
std::vector<int> two_hop_greedy(const problems::Graph& g, problems::mis_mvc::GreedyState& state) {
  std::vector<int> set;
  for (;;) {
    const std::vector<int> preferred = problems::mis_mvc::two_hop_preference(g, state);
    if (preferred.empty()) break;
    set.push_back(preferred.front());
    state.take(preferred.front());
  }
  std::sort(set.begin(), set.end());
  return set;
}

}  // namespace

std::vector<int> two_hop_independent_set(const problems::Graph& g) {
  return two_hop_greedy(g, *problems::mis_mvc::min_degree_free(g));
}

std::vector<int> two_hop_vertex_cover(const problems::Graph& g) {
  return two_hop_greedy(g, *problems::mis_mvc::max_degree_uncovered(g));
}

std::vector<int> max_degree_vertex_cover(const problems::Graph& g) { return problems::mvc::repair_set(g, {}); }

problems::Solution mis_greedy(const problems::Instance& instance, const SolveOptions&) {
  const auto& graph = problems::instance_as<problems::GraphInstance>(instance, "mis").graph;
  return problems::Solution::flat(min_degree_independent_set(graph));
}

problems::Solution mis_greedy_two_hop(const problems::Instance& instance, const SolveOptions&) {
  const auto& graph = problems::instance_as<problems::GraphInstance>(instance, "mis").graph;
  return problems::Solution::flat(two_hop_independent_set(graph));
}

problems::Solution mvc_greedy(const problems::Instance& instance, const SolveOptions&) {
  const auto& graph = problems::instance_as<problems::GraphInstance>(instance, "mvc").graph;
  return problems::Solution::flat(max_degree_vertex_cover(graph));
}

problems::Solution mvc_greedy_two_hop(const problems::Instance& instance, const SolveOptions&) {
  const auto& graph = problems::instance_as<problems::GraphInstance>(instance, "mvc").graph;
  return problems::Solution::flat(two_hop_vertex_cover(graph));
}

}  // namespace falcon::solvers
