#pragma once
// Process-wide LibTorch setup: use every free core (at::get_num_threads() starts at 1 on Debian's
// build) and report what BLAS and threads the process runs with.
#include <optional>
#include <string>

#include "falcon/core/cpu_load.h"

namespace falcon {

struct TorchRuntimeInfo {
  std::string torch_version;
  int intra_op_threads = 0;
  bool cuda_available = false;
  std::string blas_core;  // OpenBLAS kernel family (falcon/core/torch/blas.h), "" for other BLAS
  std::string allocator;  // memory_allocator() (falcon/core/torch/allocator.h)
};

// threads <= 0 (auto) means the cores other processes leave free, measured over a quarter second
// (cpu_load.h): all of them on a quiet machine, one beside a busy process on two cores.
// Safe to call more than once.
TorchRuntimeInfo init_torch_runtime(int threads = 0);

// With auto threads, a long run follows the load: each update() measures the other processes'
// busy cores since the last one and sets the threads that leave them free. Returns the new count
// when it changed. Does nothing when the user fixed the threads.
class ThreadsFollowLoad {
 public:
  explicit ThreadsFollowLoad(bool enabled);
  std::optional<int> update();

 private:
  bool enabled_;
  OtherLoad load_;
};

}  // namespace falcon
