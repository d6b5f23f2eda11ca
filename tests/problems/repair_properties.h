#pragma once
// Property checks shared by every problem's tests (Definition 3.3 / Appendix E):
//   (1) repair(x) is feasible for ANY parsed x,
//   (2) repair(x) == x when x is feasible,
//   (3) repair_distance(repair(x), x) <= alpha * violation(x),
// plus: violation(x) == 0 exactly when feasible(x), and the repaired text round-trips
// through format -> strict parse.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "falcon/core/rng.h"
#include "falcon/problems/problem.h"

namespace falcon::problems::testing {

// Random and adversarial solutions for an instance with indices in [0, n): empty lists,
// out-of-range and overflowing ids, duplicates, truncated and shuffled permutations, every id,
// many or no sublists (nested problems).
Solution adversarial_solution(Rng& rng, int n, bool nested, int max_lists);

struct PropertyStats {
  int cases = 0;
  int feasible_inputs = 0;  // how many inputs were feasible already (property 2 exercised)
};

// Runs `cases` inputs from `make_input` through the checks above; stops at the first failure
// with a message that prints the instance name and the offending solution text.
PropertyStats check_repair_properties(const Problem& problem, const Instance& instance, int cases, Rng& rng,
                                      const std::function<Solution(Rng&)>& make_input);

std::string debug_string(const Solution& s);

}  // namespace falcon::problems::testing
