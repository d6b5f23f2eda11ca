#pragma once
// What a training run's output_dir already holds, and whether a new run may write there: a run
// started from step 0 over an earlier one would replace its checkpoints, final model and metrics.
#include <string>

namespace falcon::train {

// Throws, naming what is there and the ways on (--resume, --overwrite, another output_dir), when
// output_dir holds an earlier run and neither flag is given; with overwrite, and on the process that
// writes (main), removes that run's outputs so that none of them mixes with the new run's.
void claim_output_dir(const std::string& output_dir, bool resume, bool overwrite, bool main);

}  // namespace falcon::train
