#pragma once
// Which BLAS kernels LibTorch's fp32 matmuls run on: the first thing to know when reading
// throughput figures (OpenBLAS's AVX-512 kernels are about twice as fast per core as its AVX2
// "Haswell" kernels on CPUs that have both, and OPENBLAS_CORETYPE in the environment decides).
#include <string>

namespace falcon {

struct BlasInfo {
  std::string library;  // "openblas", or "" when the process has no OpenBLAS (MKL builds)
  std::string core;     // OpenBLAS's kernel family ("Haswell", "SkylakeX", "Cooperlake", ...) or ""
};

BlasInfo blas_info();

}  // namespace falcon
