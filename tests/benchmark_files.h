#pragma once
// The public benchmark instances (TSPLIB, CVRPLIB, Taillard, ...) live outside the repository, in
// FALCON_BENCHMARKS_DIR. A test that reads them starts with this line, so a checkout without
// them skips those tests and says why instead of failing.
#include <filesystem>

#include <gtest/gtest.h>

#define FALCON_SKIP_WITHOUT_BENCHMARKS()                  \
  if (!std::filesystem::exists(FALCON_BENCHMARKS_DIR))    \
  GTEST_SKIP() << "the public benchmark files are absent (" FALCON_BENCHMARKS_DIR "): this test reads them"
