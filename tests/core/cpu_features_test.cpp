#include "falcon/core/cpu_features.h"

#include <gtest/gtest.h>

namespace falcon {
namespace {

TEST(CpuFeatures, NativeBf16FromTheFlagsLine) {
  EXPECT_TRUE(cpuinfo_has_native_bf16("processor\t: 0\nflags\t\t: fpu avx512f avx512_bf16 avx512_vnni\n"));
  EXPECT_TRUE(cpuinfo_has_native_bf16("flags\t\t: fpu amx_tile amx_bf16\n"));
  // avx512_bf16 as part of another word, or avx512f alone, is not the instruction set.
  EXPECT_FALSE(cpuinfo_has_native_bf16("flags\t\t: fpu avx512f avx512_bf16x\n"));
  EXPECT_FALSE(cpuinfo_has_native_bf16("flags\t\t: fpu avx2 avx512f\n"));
  EXPECT_FALSE(cpuinfo_has_native_bf16("model name\t: avx512_bf16 in a name\n"));
  EXPECT_FALSE(cpuinfo_has_native_bf16(""));
}

}  // namespace
}  // namespace falcon
