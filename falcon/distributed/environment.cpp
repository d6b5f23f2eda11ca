#include "falcon/distributed/environment.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <optional>

#include "falcon/core/error.h"
#include "falcon/core/strings.h"

namespace falcon::distributed {
namespace {

using Vars = std::map<std::string, std::string>;

std::optional<std::string> lookup(const Vars& vars, const std::string& name) {
  const auto it = vars.find(name);
  if (it == vars.end()) return std::nullopt;
  return trim(it->second);
}

// The first of `names` that is set, with its name (for messages).
std::optional<std::pair<std::string, std::string>> first_set(const Vars& vars, const std::vector<std::string>& names) {
  for (const auto& name : names) {
    if (auto value = lookup(vars, name)) return std::make_pair(name, *value);
  }
  return std::nullopt;
}

int parse_int(const std::string& name, const std::string& value, long min, long max, const std::string& what) {
  long parsed = 0;
  const char* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, parsed);
  if (value.empty() || ec != std::errc() || ptr != end || parsed < min || parsed > max) {
    throw Error(fmt::format("environment variable {}='{}' is not an integer in {}..{}: set {} to {}", name, value, min,
                            max, name, what));
  }
  return static_cast<int>(parsed);
}

constexpr long kMaxWorld = 1 << 20;

}  // namespace

const std::vector<std::string>& distributed_env_names() {
  static const std::vector<std::string> names = {"RANK",          "WORLD_SIZE",   "LOCAL_RANK",   "LOCAL_WORLD_SIZE",
                                                 "MASTER_ADDR",   "MASTER_PORT",  "SLURM_PROCID", "SLURM_NTASKS",
                                                 "SLURM_LOCALID", "SLURM_NTASKS_PER_NODE"};
  return names;
}

DistributedEnv parse_distributed_env(const Vars& vars) {
  DistributedEnv env;
  // RANK wins over SLURM_PROCID so torchrun inside a Slurm allocation behaves like torchrun.
  const auto rank = first_set(vars, {"RANK", "SLURM_PROCID"});
  env.from_slurm = rank && rank->first == "SLURM_PROCID";
  const auto world = env.from_slurm ? first_set(vars, {"WORLD_SIZE", "SLURM_NTASKS"}) : first_set(vars, {"WORLD_SIZE"});
  const auto local = env.from_slurm ? first_set(vars, {"LOCAL_RANK", "SLURM_LOCALID"}) : first_set(vars, {"LOCAL_RANK"});
  const auto local_world = env.from_slurm ? first_set(vars, {"LOCAL_WORLD_SIZE", "SLURM_NTASKS_PER_NODE"})
                                          : first_set(vars, {"LOCAL_WORLD_SIZE"});

  if (world) {
    env.world_size = parse_int(world->first, world->second, 1, kMaxWorld, "the number of processes in the job");
  }
  if (rank) {
    if (!world) {
      throw Error(fmt::format("environment variable {}={} is set but WORLD_SIZE is not: set WORLD_SIZE to the number "
                              "of processes (torchrun and --nproc set both)",
                              rank->first, rank->second));
    }
    env.rank = parse_int(rank->first, rank->second, 0, kMaxWorld, "this process's rank, 0..WORLD_SIZE-1");
    if (env.rank >= env.world_size) {
      throw Error(fmt::format("environment variable {}={} is not below {}={}: ranks run 0..{}", rank->first, env.rank,
                              world->first, env.world_size, env.world_size - 1));
    }
  } else if (env.world_size > 1) {
    throw Error(fmt::format("environment variable {}={} is set but RANK is not: set RANK to this process's rank in "
                            "0..{} (torchrun and --nproc set it)",
                            world->first, env.world_size, env.world_size - 1));
  }
  env.local_rank =
      local ? parse_int(local->first, local->second, 0, kMaxWorld, "this process's index on its node") : env.rank;
  // Sizes each process's share of the node's cores; unknown means the conservative WORLD_SIZE.
  env.local_world_size = local_world ? parse_int(local_world->first, local_world->second, 1, kMaxWorld,
                                                 "the number of processes on this node")
                                     : env.world_size;
  if (!env.distributed()) return env;

  const auto addr = lookup(vars, "MASTER_ADDR");
  if (!addr || addr->empty()) {
    throw Error(fmt::format("WORLD_SIZE={} but MASTER_ADDR is not set: set MASTER_ADDR to the host name or address "
                            "of rank 0 (e.g. 127.0.0.1 on one machine)",
                            env.world_size));
  }
  env.master_addr = *addr;
  const auto port = lookup(vars, "MASTER_PORT");
  if (!port) {
    throw Error(fmt::format("WORLD_SIZE={} but MASTER_PORT is not set: set MASTER_PORT to a free TCP port on "
                            "MASTER_ADDR={} (e.g. 29500)",
                            env.world_size, env.master_addr));
  }
  env.master_port = parse_int("MASTER_PORT", *port, 1, 65535, "a free TCP port on MASTER_ADDR (e.g. 29500)");
  return env;
}

DistributedEnv distributed_env_from_process() {
  Vars vars;
  for (const auto& name : distributed_env_names()) {
    if (const char* value = std::getenv(name.c_str())) vars[name] = value;
  }
  return parse_distributed_env(vars);
}

}  // namespace falcon::distributed
