#include "falcon/distributed/context.h"

#include <fmt/format.h>

#include <cstdlib>
#include <functional>

#include "falcon/core/error.h"
#include "falcon/distributed/c10d_shim.h"
#include "falcon/distributed/launcher.h"

namespace falcon::distributed {
namespace {

namespace shim = c10d_shim;

std::string message_of(const std::exception& e) {
  // c10::Error::what() carries a C++ backtrace; the short form is what a user needs.
  if (const auto* c10_error = dynamic_cast<const c10::Error*>(&e)) return c10_error->what_without_backtrace();
  return e.what();
}

double seconds(std::chrono::milliseconds t) { return static_cast<double>(t.count()) / 1000.0; }

void check_env(const DistributedEnv& env) {
  if (env.world_size < 1 || env.rank < 0 || env.rank >= env.world_size || env.local_rank < 0) {
    throw Error(fmt::format("distributed: rank {} / world size {} / local rank {} do not describe a process of a job "
                            "(need 0 <= rank < world size, local rank >= 0)",
                            env.rank, env.world_size, env.local_rank));
  }
  if (env.distributed() && (env.master_addr.empty() || env.master_port < 1 || env.master_port > 65535)) {
    throw Error(fmt::format("distributed: world size {} needs MASTER_ADDR and MASTER_PORT (1..65535), got '{}' and {}",
                            env.world_size, env.master_addr, env.master_port));
  }
}

std::string resolve_backend(const DistributedOptions& options) {
  std::string name = options.backend;
  if (name == "auto") name = options.device.is_cuda() && shim::kHaveNccl ? "nccl" : "gloo";
  if (name == "gloo") {
    if (!shim::kHaveGloo) {
      throw Error("distributed: this build found no Gloo headers (gloo/config.h), so it cannot run more than one "
                  "process: install libgloo-dev (Debian) or use a LibTorch that ships them, and reconfigure");
    }
  } else if (name == "nccl") {
    if (!shim::kHaveNccl) {
      throw Error("distributed: backend nccl asked for, but this build has no NCCL (it needs a CUDA LibTorch and "
                  "nccl.h at configure time; see docs/distributed.md): use backend gloo or auto");
    }
    if (!options.device.is_cuda()) throw Error("distributed: backend nccl needs a CUDA device; use gloo on the CPU");
  } else {
    throw Error(fmt::format("distributed: unknown backend '{}': use auto, gloo or nccl", options.backend));
  }
  return name;
}

bool is_loopback(const std::string& host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

// Gloo wants only bit patterns it knows; bf16 and bool travel widened and come back exact.
torch::ScalarType wire_dtype(torch::ScalarType dtype, const std::string& backend) {
  if (backend != "gloo") return dtype;
  if (dtype == torch::kBFloat16) return torch::kFloat32;
  if (dtype == torch::kBool) return torch::kUInt8;
  return dtype;
}

}  // namespace

struct DistributedContext::Impl {
  c10::intrusive_ptr<::c10d::Store> store;
  shim::BackendPtr backend;  // destroyed before the store
  torch::Device comm_device = torch::kCPU;  // where collectives run: CPU (Gloo) or the rank's GPU (NCCL)
  DistributedOptions options;

  void run(const DistributedEnv& env, const std::string& backend_name, const char* op,
           const std::function<shim::WorkPtr()>& start) {
    try {
      start()->wait();
    } catch (const std::exception& e) {
      note_peer_failure(env.rank);
      throw Error(fmt::format("distributed {} failed on rank {} of {} ({}): {}", op, env.rank, env.world_size,
                              backend_name, message_of(e)));
    }
  }
};

DistributedContext::DistributedContext() = default;
DistributedContext::~DistributedContext() = default;
DistributedContext::DistributedContext(DistributedContext&&) noexcept = default;
DistributedContext& DistributedContext::operator=(DistributedContext&&) noexcept = default;

DistributedContext DistributedContext::from_environment(const DistributedOptions& options) {
  return DistributedContext(distributed_env_from_process(), options);
}

DistributedContext::DistributedContext(const DistributedEnv& env, const DistributedOptions& options) : env_(env) {
  check_env(env_);
  if (options.bucket_bytes < 1) throw Error(fmt::format("distributed: bucket_bytes {} must be positive", options.bucket_bytes));
  if (!env_.distributed()) return;
  const std::string backend = resolve_backend(options);
  auto impl = std::make_unique<Impl>();
  impl->options = options;

  ::c10d::TCPStoreOptions store_options;
  store_options.port = static_cast<std::uint16_t>(env_.master_port);
  store_options.isServer = env_.rank == 0;
  store_options.numWorkers = static_cast<std::size_t>(env_.world_size);
  store_options.waitWorkers = true;
  store_options.timeout = options.timeout;
  try {
    impl->store = c10::make_intrusive<::c10d::TCPStore>(env_.master_addr, store_options);
  } catch (const std::exception& e) {
    note_peer_failure(env_.rank);
    throw Error(fmt::format(
        "distributed: rank {} of {} could not meet the others at MASTER_ADDR={} MASTER_PORT={} within {} s ({}): "
        "rank 0 must be running and able to listen on that port, every rank must use the same MASTER_ADDR, "
        "MASTER_PORT and WORLD_SIZE, and all {} ranks must be started",
        env_.rank, env_.world_size, env_.master_addr, env_.master_port, seconds(options.timeout), message_of(e),
        env_.world_size));
  }

  try {
    if (backend == "gloo") {
#ifdef FALCON_HAVE_GLOO
      using ::c10d::ProcessGroupGloo;
      auto gloo_options = ProcessGroupGloo::Options::create(options.timeout);
      const char* ifname = std::getenv("GLOO_SOCKET_IFNAME");
      if (ifname != nullptr && *ifname != '\0') {
        gloo_options->devices.push_back(ProcessGroupGloo::createDeviceForInterface(ifname));
      } else if (is_loopback(env_.master_addr)) {
        // One machine: loopback works even where the host name resolves nowhere useful.
        gloo_options->devices.push_back(ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
      } else {
        gloo_options->devices.push_back(ProcessGroupGloo::createDefaultDevice());
      }
      impl->backend = c10::make_intrusive<ProcessGroupGloo>(impl->store, env_.rank, env_.world_size, gloo_options);
#endif
    } else {
#ifdef FALCON_HAVE_NCCL
      const auto index = options.device.has_index() ? options.device.index()
                                                    : device_for_local_rank(env_.local_rank).index();
      impl->comm_device = torch::Device(torch::kCUDA, index);
      c10::cuda::set_device(index);
      auto nccl_options = ::c10d::ProcessGroupNCCL::Options::create();
      nccl_options->timeout = options.timeout;
      impl->backend =
          c10::make_intrusive<::c10d::ProcessGroupNCCL>(impl->store, env_.rank, env_.world_size, nccl_options);
#endif
    }
  } catch (const std::exception& e) {
    note_peer_failure(env_.rank);
    throw Error(fmt::format("distributed: rank {} of {} could not form the {} process group with the others met at "
                            "MASTER_ADDR={} MASTER_PORT={} within {} s ({}): all {} ranks must be started with the "
                            "same WORLD_SIZE, MASTER_ADDR and MASTER_PORT and reach each other",
                            env_.rank, env_.world_size, backend, env_.master_addr, env_.master_port,
                            seconds(options.timeout), message_of(e), env_.world_size));
  }
  backend_name_ = backend;
  impl_ = std::move(impl);
}

void DistributedContext::barrier() {
  if (!impl_) return;
  impl_->run(env_, backend_name_, "barrier", [&] { return impl_->backend->barrier(); });
}

void DistributedContext::all_reduce_mean(std::vector<torch::Tensor>& tensors) {
  all_reduce(tensors, /*mean=*/true, "all_reduce_mean");
}

void DistributedContext::all_reduce_sum(std::vector<torch::Tensor>& tensors) {
  all_reduce(tensors, /*mean=*/false, "all_reduce_sum");
}

void DistributedContext::all_reduce(std::vector<torch::Tensor>& tensors, bool mean, const char* who) {
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    if (!tensors[i].defined() || !tensors[i].is_floating_point()) {
      throw Error(fmt::format("{}: tensor {} is {}; only defined floating-point tensors can be reduced", who, i,
                              tensors[i].defined() ? std::string(c10::toString(tensors[i].scalar_type())) : "undefined"));
    }
  }
  if (!impl_) return;
  for (const auto& bucket : plan_buckets(tensors, impl_->options.bucket_bytes)) {
    const auto dtype = wire_dtype(tensors[bucket.front()].scalar_type(), backend_name_);
    std::vector<torch::Tensor> flat{flatten_bucket(tensors, bucket, impl_->comm_device).to(dtype)};  // (N,)
    impl_->run(env_, backend_name_, "all_reduce", [&] { return impl_->backend->allreduce(flat); });
    if (mean) flat[0].div_(env_.world_size);
    unflatten_bucket(flat[0], tensors, bucket);
  }
}

void DistributedContext::average_gradients(const std::vector<torch::Tensor>& parameters) {
  reduce_gradients(parameters, /*mean=*/true, "average_gradients");
}

void DistributedContext::sum_gradients(const std::vector<torch::Tensor>& parameters) {
  reduce_gradients(parameters, /*mean=*/false, "sum_gradients");
}

void DistributedContext::reduce_gradients(const std::vector<torch::Tensor>& parameters, bool mean, const char* who) {
  if (!impl_) return;
  // A different parameter list on some rank would make the flag all-reduce below mismatch.
  const auto counts = all_gather(std::vector<std::int64_t>{static_cast<std::int64_t>(parameters.size())});
  for (int r = 0; r < env_.world_size; ++r) {
    if (counts[r][0] != counts[env_.rank][0]) {
      throw Error(fmt::format("{}: rank {} passes {} parameters but rank {} passes {}; every rank must "
                              "pass the same model's parameters",
                              who, env_.rank, counts[env_.rank][0], r, counts[r][0]));
    }
  }
  std::vector<double> has_grad(parameters.size());
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const auto& grad = parameters[i].grad();
    if (grad.defined() && grad.is_sparse()) {
      throw Error(fmt::format("{}: parameter {} has a sparse gradient; use dense embeddings", who, i));
    }
    has_grad[i] = grad.defined() ? 1.0 : 0.0;
  }
  has_grad = all_reduce_sum(has_grad);
  std::vector<torch::Tensor> grads;
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    if (has_grad[i] == 0.0) continue;
    if (!parameters[i].grad().defined()) parameters[i].mutable_grad() = torch::zeros_like(parameters[i]);
    grads.push_back(parameters[i].grad());
  }
  all_reduce(grads, mean, who);
}

void DistributedContext::broadcast(std::vector<torch::Tensor>& tensors, int root) {
  if (root < 0 || root >= env_.world_size) {
    throw Error(fmt::format("broadcast: root {} is not a rank of this job (0..{})", root, env_.world_size - 1));
  }
  if (!impl_) return;
  for (const auto& bucket : plan_buckets(tensors, impl_->options.bucket_bytes)) {
    const auto dtype = wire_dtype(tensors[bucket.front()].scalar_type(), backend_name_);
    std::vector<torch::Tensor> flat{flatten_bucket(tensors, bucket, impl_->comm_device).to(dtype)};  // (N,)
    ::c10d::BroadcastOptions options;
    options.rootRank = root;
    impl_->run(env_, backend_name_, "broadcast", [&] { return impl_->backend->broadcast(flat, options); });
    if (env_.rank != root) unflatten_bucket(flat[0], tensors, bucket);
  }
}

double DistributedContext::all_reduce_sum(double value) { return all_reduce_sum(std::vector<double>{value})[0]; }

std::vector<double> DistributedContext::all_reduce_sum(const std::vector<double>& values) {
  if (!impl_ || values.empty()) return values;
  std::vector<torch::Tensor> t{torch::tensor(values, torch::kFloat64).to(impl_->comm_device)};  // (N,)
  impl_->run(env_, backend_name_, "all_reduce", [&] { return impl_->backend->allreduce(t); });
  const auto cpu = t[0].cpu();
  return {cpu.data_ptr<double>(), cpu.data_ptr<double>() + cpu.numel()};
}

namespace {

template <typename T>
std::vector<std::vector<T>> gather_impl(const std::vector<T>& values, const DistributedEnv& env,
                                        const std::function<void(std::vector<std::vector<torch::Tensor>>&,
                                                                 std::vector<torch::Tensor>&)>& gather,
                                        torch::ScalarType dtype, const torch::Device& device) {
  if (env.world_size == 1) return {values};
  std::vector<torch::Tensor> input{torch::tensor(values, dtype).to(device)};  // (N,)
  std::vector<std::vector<torch::Tensor>> output(1);
  for (int r = 0; r < env.world_size; ++r) output[0].push_back(torch::empty_like(input[0]));  // (N,) each
  gather(output, input);
  std::vector<std::vector<T>> result;
  for (const auto& t : output[0]) {
    const auto cpu = t.cpu();
    result.emplace_back(cpu.template data_ptr<T>(), cpu.template data_ptr<T>() + cpu.numel());
  }
  return result;
}

}  // namespace

std::vector<std::vector<std::int64_t>> DistributedContext::all_gather(const std::vector<std::int64_t>& values) {
  if (!impl_ || values.empty()) return std::vector<std::vector<std::int64_t>>(env_.world_size, values);
  return gather_impl<std::int64_t>(
      values, env_,
      [&](auto& out, auto& in) {
        impl_->run(env_, backend_name_, "all_gather", [&] { return impl_->backend->allgather(out, in); });
      },
      torch::kInt64, impl_->comm_device);
}

std::vector<std::vector<double>> DistributedContext::all_gather(const std::vector<double>& values) {
  if (!impl_ || values.empty()) return std::vector<std::vector<double>>(env_.world_size, values);
  return gather_impl<double>(
      values, env_,
      [&](auto& out, auto& in) {
        impl_->run(env_, backend_name_, "all_gather", [&] { return impl_->backend->allgather(out, in); });
      },
      torch::kFloat64, impl_->comm_device);
}

bool backend_available(const std::string& name) {
  if (name == "gloo") return shim::kHaveGloo;
  if (name == "nccl") return shim::kHaveNccl;
  return false;
}

torch::Device device_for_local_rank(int local_rank) {
  if (!torch::cuda::is_available()) return torch::kCPU;
  const auto count = static_cast<int>(torch::cuda::device_count());
  return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(local_rank % count));
}

}  // namespace falcon::distributed
