#include "falcon/problems/list_ops.h"

#include <algorithm>

namespace falcon::problems {

Deduplicated deduplicate(const std::vector<int>& items, int lo, int hi) {
  Deduplicated out;
  std::vector<char> seen(hi >= lo ? static_cast<std::size_t>(hi - lo + 1) : 0, 0);
  for (int v : items) {
    if (v < lo || v > hi) {
      ++out.invalid;
    } else if (seen[v - lo]) {
      ++out.duplicates;
    } else {
      seen[v - lo] = 1;
      out.kept.push_back(v);
    }
  }
  return out;
}

std::vector<int> missing_indices(const std::vector<int>& present, int lo, int hi) {
  std::vector<char> seen(hi >= lo ? static_cast<std::size_t>(hi - lo + 1) : 0, 0);
  for (int v : present) {
    if (v >= lo && v <= hi) seen[v - lo] = 1;
  }
  std::vector<int> missing;
  for (int v = lo; v <= hi; ++v) {
    if (!seen[v - lo]) missing.push_back(v);
  }
  return missing;
}

int insert_delete_distance(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
    }
    std::swap(prev, cur);
  }
  const int lcs = prev[b.size()];
  return static_cast<int>(a.size() + b.size()) - 2 * lcs;
}

std::vector<int> flatten(const std::vector<std::vector<int>>& lists) {
  std::vector<int> out;
  for (const auto& l : lists) out.insert(out.end(), l.begin(), l.end());
  return out;
}

std::vector<int> random_relabelling(int n, const std::vector<int>& fixed, Rng& rng) {
  std::vector<bool> is_fixed(static_cast<std::size_t>(std::max(n, 0)), false);
  for (int f : fixed)
    if (f >= 0 && f < n) is_fixed[f] = true;
  std::vector<int> moving;  // the ids that take part, shuffled among themselves
  for (int i = 0; i < n; ++i)
    if (!is_fixed[i]) moving.push_back(i);
  std::vector<int> targets = moving;
  rng.shuffle(targets);
  std::vector<int> relabel(static_cast<std::size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i) relabel[i] = i;
  for (std::size_t k = 0; k < moving.size(); ++k) relabel[moving[k]] = targets[k];
  return relabel;
}

Solution relabelled(const Solution& solution, const std::vector<int>& relabel) {
  Solution out = solution;
  const int n = static_cast<int>(relabel.size());
  for (auto& list : out.lists)
    for (int& v : list)
      if (v >= 0 && v < n) v = relabel[v];
  return out;
}

}  // namespace falcon::problems
