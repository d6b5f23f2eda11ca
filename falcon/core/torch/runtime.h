#pragma once
// Process-wide LibTorch setup: use every core (at::get_num_threads() starts at 1 on Debian's
// build) and report what BLAS and threads the process runs with.
#include <string>

namespace falcon {

struct TorchRuntimeInfo {
  std::string torch_version;
  int intra_op_threads = 0;
  bool cuda_available = false;
  std::string blas_core;  // OpenBLAS kernel family (falcon/core/torch/blas.h), "" for other BLAS
  std::string allocator;  // memory_allocator() (falcon/core/torch/allocator.h)
};

// threads <= 0 means all hardware threads. Safe to call more than once.
TorchRuntimeInfo init_torch_runtime(int threads = 0);

}  // namespace falcon
