#pragma once
// The instances an evaluation runs on, with their reference objectives:
//   - a dataset split (falcon_datagen .h5): the stored label is the reference;
//   - benchmark files (TSPLIB, CVRPLIB, OPLib, Taillard, ...), or directories of them: the
//     reference is the known optimum given by name (data.optima), else none (gap undefined).
// Benchmark objectives stay in the file's own units (the problems compute them from the file's
// data); only the prompt normalises coordinates into the model's 0..999 range.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "falcon/problems/problem.h"
#include "falcon/scoring/eval_spec.h"

namespace falcon::scoring {

struct EvalInstance {
  const problems::Problem* problem = nullptr;
  std::shared_ptr<const problems::Instance> instance;
  std::string name;
  std::uint64_t key = 0;                        // record index in the split / position in the file list
  std::optional<double> reference;              // f* for the gap
};

// Throws falcon::Error naming the file when an instance cannot be read.
std::vector<EvalInstance> load_eval_instances(const DataSpec& data);

// The files a list of files and directories names: directories expanded to their regular files
// (sorted; *.md and hidden files skipped).
std::vector<std::string> expand_instance_files(const std::vector<std::string>& paths);

}  // namespace falcon::scoring
