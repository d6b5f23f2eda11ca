#include "falcon/core/torch/blas.h"

#include <dlfcn.h>

namespace falcon {

BlasInfo blas_info() {
  // Looked up at run time: builds linked to another BLAS (PyTorch's libtorch uses MKL) have no
  // OpenBLAS symbols and need no OpenBLAS headers.
  using CoreNameFn = char* (*)();
  const auto core_name = reinterpret_cast<CoreNameFn>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  if (core_name == nullptr) return {};
  return {"openblas", core_name()};
}

}  // namespace falcon
