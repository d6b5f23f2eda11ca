#pragma once
// Data parallel over PyTorch's own c10d: a TCPStore rendezvous (rank 0 hosts it at
// MASTER_ADDR:MASTER_PORT) and a Gloo (CPU) or NCCL (CUDA) process group. With one process
// every collective is a no-op and nothing touches the network.
//
// Every rank must call the collectives in the same order with tensors of the same shapes and
// dtypes (the usual c10d contract); a rank that dies makes the others fail with falcon::Error
// (Gloo notices the closed connection) or, at worst, after `timeout`.
//
//   auto dist = DistributedContext::from_environment();
//   dist.broadcast(params, 0);                   // same start on every rank
//   for (...) {
//     loss_on_my_shard.backward();
//     dist.average_gradients(params);            // grads = mean over ranks
//     optimizer.step();
//   }
//
// When each rank's loss is already its part of a global sum (falcon_train divides per-token
// losses by the global token count), sum_gradients replaces average_gradients.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "falcon/core/torch/shim.h"
#include "falcon/distributed/buckets.h"
#include "falcon/distributed/environment.h"

namespace falcon::distributed {

struct DistributedOptions {
  // "auto" (NCCL when `device` is CUDA and this build has it, else Gloo), "gloo" or "nccl".
  std::string backend = "auto";
  // Where this rank computes; for CUDA the index is usually the local rank (device_for_local_rank).
  torch::Device device = torch::kCPU;
  // Rendezvous and every collective fail with falcon::Error past this.
  std::chrono::milliseconds timeout = std::chrono::minutes(30);
  std::int64_t bucket_bytes = kDefaultBucketBytes;
};

class DistributedContext {
 public:
  // Reads the environment (environment.h) and joins the job.
  static DistributedContext from_environment(const DistributedOptions& options = {});
  // Joins the job `env` describes (tests run several ranks as threads of one process).
  DistributedContext(const DistributedEnv& env, const DistributedOptions& options);
  // A one-process context: rank 0 of 1.
  DistributedContext();
  ~DistributedContext();
  DistributedContext(DistributedContext&&) noexcept;
  DistributedContext& operator=(DistributedContext&&) noexcept;

  int rank() const { return env_.rank; }
  int world_size() const { return env_.world_size; }
  int local_rank() const { return env_.local_rank; }
  bool is_main() const { return env_.rank == 0; }
  bool distributed() const { return env_.world_size > 1; }
  const DistributedEnv& env() const { return env_; }
  // "none" (one process), "gloo" or "nccl".
  const std::string& backend_name() const { return backend_name_; }

  void barrier();

  // In place: every tensor becomes the mean of that tensor over the ranks. Floating-point
  // tensors, any devices; flattened into buckets of options.bucket_bytes per dtype and device.
  void all_reduce_mean(std::vector<torch::Tensor>& tensors);
  // In place: every tensor becomes the sum over the ranks (same rules as all_reduce_mean).
  void all_reduce_sum(std::vector<torch::Tensor>& tensors);

  // Gradient averaging for data parallel. Ranks first agree which parameters have a gradient on
  // any rank; a rank without one (its shard never reached that parameter) contributes zeros, so
  // every rank ends with the same set of defined gradients, each the mean over ranks. Parameters
  // without a gradient on every rank keep none. Every rank must pass the same parameter list.
  void average_gradients(const std::vector<torch::Tensor>& parameters);
  // The same, with every gradient the sum over ranks: for losses that are each rank's part of a
  // global sum, so the summed gradient is the one-process gradient of the whole batch.
  void sum_gradients(const std::vector<torch::Tensor>& parameters);

  // In place: every tensor becomes root's value (initial parameters, optimizer state).
  void broadcast(std::vector<torch::Tensor>& tensors, int root = 0);

  // Sums over ranks (metrics: losses, token counts, skipped groups). Same length on every rank.
  double all_reduce_sum(double value);
  std::vector<double> all_reduce_sum(const std::vector<double>& values);

  // Every rank's `values`, indexed by rank. Same length on every rank.
  std::vector<std::vector<std::int64_t>> all_gather(const std::vector<std::int64_t>& values);
  std::vector<std::vector<double>> all_gather(const std::vector<double>& values);

 private:
  struct Impl;
  void all_reduce(std::vector<torch::Tensor>& tensors, bool mean, const char* who);
  void reduce_gradients(const std::vector<torch::Tensor>& parameters, bool mean, const char* who);
  DistributedEnv env_;
  std::string backend_name_ = "none";
  std::unique_ptr<Impl> impl_;  // null with one process
};

// cuda:(local_rank mod device count) when CUDA is available, else CPU.
torch::Device device_for_local_rank(int local_rank);

// Whether this build has the c10d backend "gloo" or "nccl" (their headers were found at build
// time: a PyTorch 2.x wheel ships NCCL's but not Gloo's).
bool backend_available(const std::string& name);

}  // namespace falcon::distributed
