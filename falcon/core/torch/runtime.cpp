#include "falcon/core/torch/runtime.h"

#include <thread>

#include "falcon/core/torch/allocator.h"
#include "falcon/core/torch/blas.h"
#include "falcon/core/torch/shim.h"

namespace falcon {

TorchRuntimeInfo init_torch_runtime(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  at::set_num_threads(threads);
  TorchRuntimeInfo info;
  info.torch_version = torch_shim::torch_version();
  info.intra_op_threads = at::get_num_threads();
  info.cuda_available = torch::cuda::is_available();
  info.blas_core = blas_info().core;
  info.allocator = memory_allocator();
  return info;
}

}  // namespace falcon
