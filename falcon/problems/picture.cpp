#include "falcon/problems/picture.h"

#include <algorithm>
#include <iterator>

namespace falcon::problems {
namespace {

// Every list's items, sorted, each once.
std::vector<int> sorted_unique(const Solution& s) {
  std::vector<int> v;
  for (const auto& list : s.lists) v.insert(v.end(), list.begin(), list.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace

std::vector<int> in_range(const std::vector<int>& ids, int n) {
  std::vector<int> out;
  for (int v : ids)
    if (v >= 0 && v < n) out.push_back(v);
  return out;
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

void mark_route_repair(RouteMap& map, const std::vector<std::vector<int>>& raw_paths, const Solution& raw,
                       const Solution& drawn) {
  const auto before = path_edges(raw_paths), after = path_edges(map.paths);
  map.shows_repair = true;
  map.added_by_repair.clear();
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(map.added_by_repair));
  map.dropped_by_repair = in_range(items_missing_from(raw, drawn), static_cast<int>(map.coords.size()));
}

std::vector<int> items_missing_from(const Solution& a, const Solution& b) {
  const auto in_a = sorted_unique(a), in_b = sorted_unique(b);
  std::vector<int> out;
  std::set_difference(in_a.begin(), in_a.end(), in_b.begin(), in_b.end(), std::back_inserter(out));
  return out;
}

std::vector<std::pair<int, int>> items_placed_by_repair(const Solution& raw, const Solution& repaired) {
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

}  // namespace falcon::problems
