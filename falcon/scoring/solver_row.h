#pragma once
// A heuristic or reference solver as a row of the evaluation (type: solver:<method>): the
// solver's solution is delivered as it is (no sampling, no repair), timed. One more method,
// repair_empty, is the problem's repair applied to an empty answer: what repair delivers with no
// help from a model, the floor under every row that repairs.
#include <cstdint>

#include "falcon/scoring/eval_instances.h"
#include "falcon/scoring/instance_result.h"

namespace falcon::scoring {

// Throws falcon::Error listing the known methods when row.solver is neither one for the problem
// nor repair_empty.
InstanceResult run_solver_row(const RowSpec& row, const EvalInstance& instance, std::uint64_t seed);

}  // namespace falcon::scoring
