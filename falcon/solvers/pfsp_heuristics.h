#pragma once
// Constructive flow-shop baseline of Table 2.
#include <vector>

#include "falcon/problems/pfsp.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

// NEH (Nawaz, Enscore & Ham 1983): jobs by total processing time, largest first (stable: lower
// id first on ties), each inserted at its best position so far (earliest on ties), using
// Taillard's O(k m) evaluation of all k + 1 positions. O(n^2 m) in all.
std::vector<int> neh_order(const problems::pfsp::PfspInstance& instance);
problems::Solution pfsp_neh(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
