#pragma once
// The constraint of each problem family (semantic.h), one file per family:
//   semantic_routing.cpp  TSP, PFSP (permutations), OP (budget), CVRP (capacity)
//   semantic_graph.cpp    MIS (independence), MVC (cover)
//   semantic_jssp.cpp     JSSP (each machine list a permutation of the jobs, m lists)
// Each factory throws falcon::Error when the instance is of another problem.
#include <memory>

#include "falcon/decoding/semantic.h"

namespace falcon::decoding {

// Every index of [first, last] exactly once; the list closes only when complete.
std::unique_ptr<SemanticConstraint> make_tsp_constraint(std::shared_ptr<const problems::Instance> instance);
std::unique_ptr<SemanticConstraint> make_pfsp_constraint(std::shared_ptr<const problems::Instance> instance);
// Distinct nodes other than start/end whose path start -> ... -> end fits the budget.
std::unique_ptr<SemanticConstraint> make_op_constraint(std::shared_ptr<const problems::Instance> instance);
// Each customer once, every route within capacity, the body closes when all are routed.
std::unique_ptr<SemanticConstraint> make_cvrp_constraint(std::shared_ptr<const problems::Instance> instance);
// Distinct vertices, no two adjacent.
std::unique_ptr<SemanticConstraint> make_mis_constraint(std::shared_ptr<const problems::Instance> instance);
// Distinct vertices; the list closes only when every edge is covered.
std::unique_ptr<SemanticConstraint> make_mvc_constraint(std::shared_ptr<const problems::Instance> instance);
// Exactly m machine lists, each a permutation of the jobs (acyclicity is left to repair).
std::unique_ptr<SemanticConstraint> make_jssp_constraint(std::shared_ptr<const problems::Instance> instance);

}  // namespace falcon::decoding
