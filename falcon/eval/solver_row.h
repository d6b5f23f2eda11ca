#pragma once
// A heuristic or reference solver as a row of the evaluation (type: solver:<method>): the
// solver's solution is delivered as it is (no sampling, no repair), timed.
#include <cstdint>

#include "falcon/eval/eval_instances.h"
#include "falcon/eval/instance_result.h"

namespace falcon::eval {

// Throws falcon::Error listing the known methods when row.solver is not one for the problem.
InstanceResult run_solver_row(const RowSpec& row, const EvalInstance& instance, std::uint64_t seed);

}  // namespace falcon::eval
