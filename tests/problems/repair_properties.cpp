#include "tests/problems/repair_properties.h"

#include "falcon/problems/solution_text.h"

namespace falcon::problems::testing {
namespace {

int random_index(Rng& rng, int n) {
  const int r = rng.uniform_int(0, 99);
  if (r < 90) return rng.uniform_int(0, n - 1);
  if (r < 94) return rng.uniform_int(n, n + 5);       // just out of range
  if (r < 97) return -rng.uniform_int(1, 3);          // negative (1-based "0")
  return kIndexOverflow;                              // digits too long for int
}

std::vector<int> random_list(Rng& rng, int n) {
  std::vector<int> list;
  switch (rng.uniform_int(0, 6)) {
    case 0:  // empty
      break;
    case 1: {  // a full permutation (often feasible for permutation problems)
      for (int i = 0; i < n; ++i) list.push_back(i);
      rng.shuffle(list);
      break;
    }
    case 2: {  // permutation with a few mutations
      for (int i = 0; i < n; ++i) list.push_back(i);
      rng.shuffle(list);
      const int edits = rng.uniform_int(1, 3);
      for (int e = 0; e < edits && !list.empty(); ++e) {
        const int at = rng.uniform_int(0, static_cast<int>(list.size()) - 1);
        switch (rng.uniform_int(0, 2)) {
          case 0: list.erase(list.begin() + at); break;
          case 1: list[at] = random_index(rng, n); break;
          default: list.insert(list.begin() + at, random_index(rng, n)); break;
        }
      }
      break;
    }
    case 3: {  // truncated permutation
      for (int i = 0; i < n; ++i) list.push_back(i);
      rng.shuffle(list);
      list.resize(rng.uniform_int(0, n));
      break;
    }
    case 4: {  // every id, many duplicates
      const int len = rng.uniform_int(n, 3 * n);
      for (int i = 0; i < len; ++i) list.push_back(rng.uniform_int(0, n - 1));
      break;
    }
    case 5: {  // short random subset (sets, OP routes)
      const int len = rng.uniform_int(1, std::max(1, n / 3));
      for (int i = 0; i < len; ++i) list.push_back(random_index(rng, n));
      break;
    }
    default: {  // pure noise
      const int len = rng.uniform_int(0, 2 * n);
      for (int i = 0; i < len; ++i) list.push_back(random_index(rng, n));
      break;
    }
  }
  return list;
}

}  // namespace

Solution adversarial_solution(Rng& rng, int n, bool nested, int max_lists) {
  Solution s;
  if (!nested) {
    s.lists.push_back(random_list(rng, n));
    return s;
  }
  const int lists = rng.uniform_int(0, max_lists);
  for (int i = 0; i < lists; ++i) s.lists.push_back(random_list(rng, n));
  return s;
}

std::string debug_string(const Solution& s) {
  return format_solution(TextFormat{"X", /*nested=*/true, /*index_base=*/0}, s, 0.0);
}

PropertyStats check_repair_properties(const Problem& problem, const Instance& instance, int cases, Rng& rng,
                                      const std::function<Solution(Rng&)>& make_input) {
  PropertyStats stats;
  const double alpha = problem.locality_constant();
  for (int c = 0; c < cases; ++c) {
    const Solution x = make_input(rng);
    const bool was_feasible = problem.feasible(instance, x);
    const double v = problem.violation(instance, x);
    const Solution r = problem.repair(instance, x);
    const std::string where = instance.name + " input " + debug_string(x) + " repaired " + debug_string(r);
    ++stats.cases;
    stats.feasible_inputs += was_feasible;
    EXPECT_GE(v, 0.0) << where;
    EXPECT_EQ(v == 0.0, was_feasible) << "violation " << v << " disagrees with feasible() for " << where;
    EXPECT_TRUE(problem.feasible(instance, r)) << "(1) repair output infeasible: " << where;
    if (was_feasible) EXPECT_EQ(r, x) << "(2) feasible input changed: " << where;
    const double d = problem.repair_distance(instance, r, x);
    EXPECT_LE(d, alpha * v + 1e-9) << "(3) distance " << d << " > alpha " << alpha << " * violation " << v << ": " << where;
    // The repaired solution must be writable in the grammar and read back identically.
    const std::string text = problem.format(instance, r);
    EXPECT_TRUE(problem.grammar(instance).accepts(text)) << "grammar rejects repaired text " << text;
    const ParseResult back = problem.parse(text);
    EXPECT_TRUE(back.solution.has_value() && *back.solution == r) << "round trip failed for " << text;
    if (::testing::Test::HasFailure()) break;
  }
  return stats;
}

}  // namespace falcon::problems::testing
