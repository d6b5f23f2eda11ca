#include "falcon/eval/repair_changes.h"

#include <algorithm>
#include <iterator>

#include "falcon/problems/cvrp.h"
#include "falcon/problems/op.h"
#include "falcon/problems/tsp.h"

namespace falcon::eval {
namespace {

// `path` without the ids out of [0, n).
std::vector<int> valid_only(const std::vector<int>& path, int n) {
  std::vector<int> out;
  for (int v : path)
    if (v >= 0 && v < n) out.push_back(v);
  return out;
}

// Every list's items, sorted, each once.
std::vector<int> sorted_unique(const problems::Solution& s) {
  std::vector<int> v;
  for (const auto& list : s.lists) v.insert(v.end(), list.begin(), list.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace

std::vector<std::vector<int>> route_paths(const problems::Instance& instance, const problems::Solution& solution) {
  if (auto* tsp = dynamic_cast<const problems::tsp::TspInstance*>(&instance)) {
    std::vector<int> tour = valid_only(solution.items(), tsp->geometry.n);
    if (!tour.empty()) tour.push_back(tour.front());
    return {tour};
  }
  if (auto* op = dynamic_cast<const problems::op::OpInstance*>(&instance)) {
    std::vector<int> path = {op->start};
    for (int v : valid_only(solution.items(), op->geometry.n)) path.push_back(v);
    path.push_back(op->end);
    return {path};
  }
  if (auto* cvrp = dynamic_cast<const problems::cvrp::CvrpInstance*>(&instance)) {
    std::vector<std::vector<int>> paths;
    for (const auto& route : solution.lists) {
      std::vector<int> path = {0};
      for (int v : valid_only(route, cvrp->geometry.n)) path.push_back(v);
      path.push_back(0);
      paths.push_back(std::move(path));
    }
    return paths;
  }
  return {};
}

std::vector<Edge> path_edges(const std::vector<std::vector<int>>& paths) {
  std::vector<Edge> edges;
  for (const auto& path : paths) {
    for (std::size_t i = 1; i < path.size(); ++i) {
      const int a = path[i - 1], b = path[i];
      if (a != b) edges.emplace_back(std::min(a, b), std::max(a, b));
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

std::vector<Edge> edges_added_by_repair(const problems::Instance& instance, const problems::Solution& raw,
                                        const problems::Solution& repaired) {
  const auto before = path_edges(route_paths(instance, raw));
  const auto after = path_edges(route_paths(instance, repaired));
  std::vector<Edge> added;
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(added));
  return added;
}

std::vector<int> items_missing_from(const problems::Solution& a, const problems::Solution& b) {
  const auto in_a = sorted_unique(a), in_b = sorted_unique(b);
  std::vector<int> out;
  std::set_difference(in_a.begin(), in_a.end(), in_b.begin(), in_b.end(), std::back_inserter(out));
  return out;
}

std::vector<std::pair<int, int>> items_placed_by_repair(const problems::Solution& raw,
                                                        const problems::Solution& repaired) {
  std::vector<std::pair<int, int>> placed;
  for (std::size_t l = 0; l < repaired.lists.size(); ++l) {
    const std::vector<int>& a = repaired.lists[l];
    static const std::vector<int> kEmpty;
    const std::vector<int>& b = l < raw.lists.size() ? raw.lists[l] : kEmpty;
    // lcs[i][j]: longest common subsequence of a[i..] and b[j..] (lists are one machine's jobs: small).
    std::vector<std::vector<int>> lcs(a.size() + 1, std::vector<int>(b.size() + 1, 0));
    for (std::size_t i = a.size(); i-- > 0;) {
      for (std::size_t j = b.size(); j-- > 0;) {
        lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    std::size_t i = 0, j = 0;  // walk one optimal alignment; items of `a` it skips were placed
    while (i < a.size()) {
      if (j < b.size() && a[i] == b[j]) {
        ++i, ++j;
      } else if (j < b.size() && lcs[i][j + 1] >= lcs[i + 1][j]) {
        ++j;
      } else {
        placed.emplace_back(static_cast<int>(l), a[i++]);
      }
    }
  }
  std::sort(placed.begin(), placed.end());
  return placed;
}

}  // namespace falcon::eval
