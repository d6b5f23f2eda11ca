#pragma once
// Which malloc the process runs on. LibTorch on a CPU frees and reallocates tensors of many
// megabytes every step; glibc's malloc returns such blocks to the kernel and faults them in again,
// which on a virtual machine cost half of a training step. The programs link tcmalloc for that
// (FALCON_TCMALLOC in CMakeLists.txt); this says whether it is there, for logs and benchmarks.
#include <string>

namespace falcon {

// "tcmalloc", "jemalloc", or "libc malloc" (found by the allocators' own symbols at run time, so
// an LD_PRELOAD counts too).
std::string memory_allocator();

}  // namespace falcon
