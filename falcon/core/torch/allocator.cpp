#include "falcon/core/torch/allocator.h"

#include <dlfcn.h>

namespace falcon {

std::string memory_allocator() {
  if (dlsym(RTLD_DEFAULT, "tc_malloc") != nullptr) return "tcmalloc";
  if (dlsym(RTLD_DEFAULT, "mallctl") != nullptr) return "jemalloc";
  return "libc malloc";
}

}  // namespace falcon
