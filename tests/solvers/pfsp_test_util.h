#pragma once
// Small PFSP instances and their exact optimum, shared by the NEH and reference-solver tests.
#include <algorithm>
#include <climits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/problems/pfsp.h"

namespace falcon::solvers::testing {

inline std::shared_ptr<problems::pfsp::PfspInstance> random_pfsp_instance(Rng& rng, int min_jobs, int max_jobs,
                                                                          int max_machines, std::uint64_t seed) {
  problems::GenerateOptions opt;
  opt.n = rng.uniform_int(min_jobs, max_jobs);
  opt.params["m"] = std::to_string(rng.uniform_int(1, max_machines));
  return problems::pfsp::generate(opt, seed);
}

// Makespan of the best of all n! orders (n <= 8 or so).
inline long long brute_force_optimum(const problems::pfsp::PfspInstance& inst) {
  std::vector<int> order(inst.jobs);
  std::iota(order.begin(), order.end(), 0);
  long long best = LLONG_MAX;
  do best = std::min(best, problems::pfsp::makespan(inst, order));
  while (std::next_permutation(order.begin(), order.end()));
  return best;
}

}  // namespace falcon::solvers::testing
