#include "falcon/train/data_parallel.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <thread>

#include "falcon/core/error.h"

namespace falcon::train {

torch::Device rank_device(const std::string& device, const distributed::DistributedEnv& env) {
  const torch::Device parsed(device);
  if (parsed.is_cuda() && !parsed.has_index() && env.distributed() && torch::cuda::is_available())
    return distributed::device_for_local_rank(env.local_rank);
  return parsed;
}

int rank_threads(int threads, const distributed::DistributedEnv& env) {
  if (threads > 0 || env.local_world_size <= 1) return threads;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, cores / env.local_world_size);  // N ranks on C cores fight over them otherwise
}

distributed::DistributedOptions distributed_options(const recipe::DistributedSpec& spec, const torch::Device& device) {
  distributed::DistributedOptions options;
  options.backend = spec.backend;
  options.device = device;
  options.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(spec.timeout_s * 1000.0));
  options.bucket_bytes = std::max<std::int64_t>(1, static_cast<std::int64_t>(spec.bucket_mb * (1 << 20)));
  return options;
}

void broadcast_parameters(distributed::DistributedContext& context, model::CausalLm& model) {
  if (!context.distributed()) return;
  auto parameters = model->parameters();
  context.broadcast(parameters, /*root=*/0);
}

void check_same_on_every_rank(distributed::DistributedContext& context, const std::vector<std::int64_t>& values,
                              const std::string& what) {
  if (!context.distributed()) return;
  const auto all = context.all_gather(values);
  for (int r = 1; r < context.world_size(); ++r) {
    if (all[r] != all[0]) {
      throw Error(fmt::format("rank {} and rank 0 disagree on {} ({} vs {}): every rank must see the same "
                              "output_dir (one machine, or a shared filesystem) and run the same recipe",
                              r, what, fmt::join(all[r], ", "), fmt::join(all[0], ", ")));
    }
  }
}

bool true_on_any_rank(distributed::DistributedContext& context, bool mine) {
  if (!context.distributed()) return mine;
  for (const auto& rank_values : context.all_gather(std::vector<std::int64_t>{mine ? 1 : 0}))
    if (rank_values.at(0) != 0) return true;
  return false;
}

}  // namespace falcon::train
