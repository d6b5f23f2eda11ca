#include "falcon/core/torch/blas.h"

#include <gtest/gtest.h>

#include "falcon/core/torch/runtime.h"

namespace falcon {
namespace {

TEST(BlasInfo, NamesTheKernelsTheRuntimeReports) {
  const auto info = blas_info();
  EXPECT_EQ(info.library.empty(), info.core.empty());
  EXPECT_EQ(init_torch_runtime().blas_core, info.core);
  std::printf("BLAS: %s %s\n", info.library.empty() ? "(not OpenBLAS)" : info.library.c_str(), info.core.c_str());
}

}  // namespace
}  // namespace falcon
