#include "falcon/core/torch/runtime.h"

#include <chrono>
#include <thread>

#include "falcon/core/torch/allocator.h"
#include "falcon/core/torch/blas.h"
#include "falcon/core/torch/shim.h"

namespace falcon {

namespace {

int hardware_cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

}  // namespace

TorchRuntimeInfo init_torch_runtime(int threads) {
  if (threads <= 0) {
    threads = hardware_cores();
    OtherLoad load;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    if (const auto busy = load.busy_cores_since_last(threads)) threads = threads_beside(threads, *busy);
  }
  at::set_num_threads(threads);
  TorchRuntimeInfo info;
  info.torch_version = torch_shim::torch_version();
  info.intra_op_threads = at::get_num_threads();
  info.cuda_available = torch::cuda::is_available();
  info.blas_core = blas_info().core;
  info.allocator = memory_allocator();
  return info;
}

ThreadsFollowLoad::ThreadsFollowLoad(bool enabled) : enabled_(enabled) {}

std::optional<int> ThreadsFollowLoad::update() {
  if (!enabled_) return std::nullopt;
  const int cores = hardware_cores();
  const auto busy = load_.busy_cores_since_last(cores);
  if (!busy) return std::nullopt;
  const int want = threads_beside(cores, *busy);
  if (want == at::get_num_threads()) return std::nullopt;
  at::set_num_threads(want);
  return want;
}

}  // namespace falcon
