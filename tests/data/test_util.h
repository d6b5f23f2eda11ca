#pragma once
// Helpers shared by the dataset tests: scratch directories, specs from YAML text, and a
// record-by-record comparison of two dataset files.
#include <filesystem>
#include <string>

#include "falcon/data/datagen_spec.h"

namespace falcon::data::testing {

// A fresh empty directory under the system temp dir, named after the running test.
std::filesystem::path scratch_dir();

// The fast heuristic that labels `problem` in tests (the reference solvers take seconds).
std::string test_method(const std::string& problem);

// A small config for `problem` (two splits, both distributions where there are two) writing to `output`.
std::string small_config(const std::string& problem, const std::string& output, int train = 6, int test = 4);

DatagenSpec spec_from_yaml(const std::string& yaml, const std::vector<std::string>& overrides = {});

// Every record equal (the solver's wall-clock seconds excepted), same splits, same identity.
void expect_same_dataset(const std::string& a, const std::string& b);

}  // namespace falcon::data::testing
