#pragma once
// Where this process sits in a data-parallel job, as launchers describe it in the environment:
//
//   torchrun / --nproc:  RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT
//   Slurm (srun):        SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_NTASKS_PER_NODE stand
//                        in for RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE when those are
//                        unset; MASTER_ADDR and MASTER_PORT still come from the job script.
//
// Nothing set means one process (rank 0 of 1), which needs no network at all.
#include <map>
#include <string>
#include <vector>

namespace falcon::distributed {

struct DistributedEnv {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;       // index among this node's processes (picks the GPU)
  int local_world_size = 1; // processes on this node (share its cores); WORLD_SIZE when unset
  std::string master_addr;  // empty when world_size == 1
  int master_port = 0;      // 0 when world_size == 1
  bool from_slurm = false;  // rank / world came from SLURM_* variables

  bool distributed() const { return world_size > 1; }
};

// The variables parse_distributed_env reads.
const std::vector<std::string>& distributed_env_names();

// Validates and interprets `vars` (name -> value; absent names are unset). Throws falcon::Error
// naming the variable and what to set on: a non-integer or negative RANK / WORLD_SIZE /
// LOCAL_RANK, RANK >= WORLD_SIZE, RANK without WORLD_SIZE (or the reverse with WORLD_SIZE > 1),
// missing MASTER_ADDR / MASTER_PORT when WORLD_SIZE > 1, MASTER_PORT outside 1..65535.
// LOCAL_RANK defaults to RANK, LOCAL_WORLD_SIZE to WORLD_SIZE (at least local rank + 1).
DistributedEnv parse_distributed_env(const std::map<std::string, std::string>& vars);

// parse_distributed_env over this process's environment.
DistributedEnv distributed_env_from_process();

}  // namespace falcon::distributed
