#pragma once
// Heuristic baselines (Table 2) and reference solvers (labels) behind one signature.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "falcon/problems/problem.h"

namespace falcon::solvers {

struct SolveOptions {
  std::uint64_t seed = 1;
  double time_limit_s = 0;  // 0 = the method's own default budget
};

using SolveFn = std::function<problems::Solution(const problems::Instance&, const SolveOptions&)>;

struct SolverEntry {
  std::string_view problem;  // "tsp"
  std::string_view method;   // "nearest_neighbor"
  SolveFn solve;
};

// Throws falcon::Error listing the methods known for `problem` when `method` is not one.
const SolverEntry& solver_by_name(std::string_view problem, std::string_view method);
std::vector<const SolverEntry*> solvers_for(std::string_view problem);

}  // namespace falcon::solvers
