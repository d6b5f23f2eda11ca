#pragma once
// A solution as the grammars of Appendix D write it: one list of indices (TSP, OP, MIS, MVC,
// PFSP) or a list of lists (CVRP routes, JSSP machine sequences). Indices are 0-based here;
// problems whose text is 1-based (PFSP, JSSP jobs) convert in the formatter and parser.
#include <climits>
#include <vector>

namespace falcon::problems {

// Index the parser stores for a number too large for int: out of range for every instance,
// so repair drops it like any other invalid index.
inline constexpr int kIndexOverflow = INT_MAX;

struct Solution {
  std::vector<std::vector<int>> lists;

  // Flat problems use lists[0]; an empty solution has one empty list.
  static Solution flat(std::vector<int> items) { return Solution{{std::move(items)}}; }
  const std::vector<int>& items() const;  // lists[0], or an empty list when there is none

  bool operator==(const Solution& other) const { return lists == other.lists; }
  bool operator!=(const Solution& other) const { return !(*this == other); }
};

}  // namespace falcon::problems
