#include "falcon/core/torch/allocator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "falcon/core/torch/runtime.h"

namespace falcon {
namespace {

TEST(MemoryAllocator, IsTheOneTheBuildLinked) {
  // An LD_PRELOAD of another allocator (a user's choice) decides instead of the build.
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload != nullptr && *preload != '\0') GTEST_SKIP() << "LD_PRELOAD=" << preload;
#ifdef FALCON_LINKS_TCMALLOC
  EXPECT_EQ(memory_allocator(), "tcmalloc");
#else
  EXPECT_EQ(memory_allocator(), "libc malloc");
#endif
  EXPECT_EQ(init_torch_runtime().allocator, memory_allocator());
}

}  // namespace
}  // namespace falcon
