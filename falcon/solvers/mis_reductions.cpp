#include "falcon/solvers/mis_reductions.h"

#include <algorithm>
#include <deque>
#include <iterator>
#include <utility>

namespace falcon::solvers {
namespace {

using problems::Graph;

// A graph under deletion and folding: sorted adjacency lists, vertex ids only ever grow (a fold
// appends its merged vertex), so appending a new id keeps every list sorted.
class Reducer {
 public:
  Reducer(const Graph& g, const MisReduceOptions& options) : options_(options) {
    adj_.resize(static_cast<std::size_t>(g.n));
    for (int v = 0; v < g.n; ++v) adj_[v].assign(g.neighbors(v).begin(), g.neighbors(v).end());
    alive_.assign(adj_.size(), 1);
    queued_.assign(adj_.size(), 0);
    mark_.assign(adj_.size(), 0);
    kernel_.input_n = g.n;
  }

  MisKernel run() && {
    // Sweeps until one finds nothing: a rule that fires re-queues the vertices it touched, and
    // the final sweep proves the fixpoint for rules (domination) a neighbour's change enables.
    for (bool changed = true; changed;) {
      changed = false;
      for (int v = 0; v < static_cast<int>(adj_.size()); ++v) push(v);
      while (!queue_.empty()) {
        const int v = queue_.front();
        queue_.pop_front();
        queued_[v] = 0;
        if (alive_[v] && reduce_at(v)) changed = true;
      }
    }
    return finish();
  }

 private:
  bool adjacent(int a, int b) const { return std::binary_search(adj_[a].begin(), adj_[a].end(), b); }

  void push(int v) {
    if (alive_[v] && !queued_[v]) {
      queued_[v] = 1;
      queue_.push_back(v);
    }
  }

  void remove(int x) {
    for (int y : adj_[x]) {
      auto& list = adj_[y];
      list.erase(std::lower_bound(list.begin(), list.end(), x));
      push(y);
    }
    adj_[x].clear();
    alive_[x] = 0;
  }

  void take(int v) {
    kernel_.taken.push_back(v);
    const std::vector<int> neighbours = adj_[v];
    for (int u : neighbours) remove(u);
    remove(v);
  }

  void fold(int v, int u, int w) {
    std::vector<int> merged;
    std::set_union(adj_[u].begin(), adj_[u].end(), adj_[w].begin(), adj_[w].end(), std::back_inserter(merged));
    merged.erase(std::find(merged.begin(), merged.end(), v));  // v is in both lists; u, w in none
    remove(v);
    remove(u);
    remove(w);
    const int z = static_cast<int>(adj_.size());
    for (int y : merged) adj_[y].push_back(z);  // z is the largest id: the lists stay sorted
    adj_.push_back(std::move(merged));
    alive_.push_back(1);
    queued_.push_back(0);
    mark_.push_back(0);
    kernel_.folds.push_back({v, u, w, z});
    push(z);
    for (int y : adj_[z]) push(y);
  }

  // N[v] subset of N[u] for a neighbour u of v.
  bool closed_subset(int v, int u) {
    ++stamp_;
    mark_[u] = stamp_;
    for (int y : adj_[u]) mark_[y] = stamp_;
    for (int y : adj_[v]) {
      if (mark_[y] != stamp_) return false;
    }
    return true;
  }

  bool reduce_at(int v) {
    const std::size_t d = adj_[v].size();
    if (d <= 1) {
      take(v);
      return true;
    }
    if (d == 2) {
      const int u = adj_[v][0], w = adj_[v][1];
      if (adjacent(u, w)) {
        take(v);
        return true;
      }
      if (options_.fold_degree_two) {
        fold(v, u, w);
        return true;
      }
    }
    if (options_.domination) {
      for (int u : adj_[v]) {
        if (adj_[u].size() >= d && closed_subset(v, u)) {
          remove(u);  // re-queues v, whose other neighbours may dominate it too
          return true;
        }
      }
    }
    return false;
  }

  MisKernel finish() {
    kernel_.extended_n = static_cast<int>(adj_.size());
    std::vector<int> index(adj_.size(), -1);
    for (int x = 0; x < kernel_.extended_n; ++x) {
      if (!alive_[x]) continue;
      index[x] = static_cast<int>(kernel_.extended_of.size());
      kernel_.extended_of.push_back(x);
    }
    std::vector<std::pair<int, int>> edges;
    for (int x : kernel_.extended_of) {
      for (int y : adj_[x]) {
        if (x < y) edges.emplace_back(index[x], index[y]);
      }
    }
    kernel_.graph = Graph::from_edges(static_cast<int>(kernel_.extended_of.size()), std::move(edges));
    kernel_.offset = static_cast<int>(kernel_.taken.size() + kernel_.folds.size());
    return std::move(kernel_);
  }

  MisReduceOptions options_;
  std::vector<std::vector<int>> adj_;
  std::vector<char> alive_, queued_;
  std::vector<unsigned> mark_;
  unsigned stamp_ = 0;
  std::deque<int> queue_;
  MisKernel kernel_;
};

}  // namespace

std::vector<int> MisKernel::lift(const std::vector<int>& kernel_set) const {
  std::vector<char> in(static_cast<std::size_t>(extended_n), 0);
  for (int v : kernel_set) in[extended_of[v]] = 1;
  for (int x : taken) in[x] = 1;
  // Undo the folds newest first: a merged vertex may itself be folded again later.
  for (auto it = folds.rbegin(); it != folds.rend(); ++it) {
    if (in[it->merged]) {
      in[it->merged] = 0;
      in[it->u] = in[it->w] = 1;
    } else {
      in[it->v] = 1;
    }
  }
  std::vector<int> set;
  for (int v = 0; v < input_n; ++v) {
    if (in[v]) set.push_back(v);
  }
  return set;
}

MisKernel reduce_mis(const Graph& g, const MisReduceOptions& options) { return Reducer(g, options).run(); }

std::vector<std::vector<int>> connected_components(const Graph& g) {
  std::vector<char> seen(static_cast<std::size_t>(g.n), 0);
  std::vector<std::vector<int>> components;
  for (int s = 0; s < g.n; ++s) {
    if (seen[s]) continue;
    std::vector<int> component{s};
    seen[s] = 1;
    for (std::size_t i = 0; i < component.size(); ++i) {
      for (int u : g.neighbors(component[i])) {
        if (!seen[u]) {
          seen[u] = 1;
          component.push_back(u);
        }
      }
    }
    std::sort(component.begin(), component.end());
    components.push_back(std::move(component));
  }
  return components;
}

Graph induced_subgraph(const Graph& g, const std::vector<int>& vertices) {
  std::vector<int> index(static_cast<std::size_t>(g.n), -1);
  for (std::size_t i = 0; i < vertices.size(); ++i) index[vertices[i]] = static_cast<int>(i);
  std::vector<std::pair<int, int>> edges;
  for (int v : vertices) {
    for (int u : g.neighbors(v)) {
      if (v < u && index[u] >= 0) edges.emplace_back(index[v], index[u]);
    }
  }
  return Graph::from_edges(static_cast<int>(vertices.size()), std::move(edges));
}

}  // namespace falcon::solvers
