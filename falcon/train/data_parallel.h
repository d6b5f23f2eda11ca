#pragma once
// falcon_train's side of data parallel (docs/training.md): where this rank computes, how many
// threads it takes, how its process group is set up, and the checks and broadcasts that keep
// the ranks' replicas identical. The collectives themselves are falcon/distributed's.
#include <cstdint>
#include <string>
#include <vector>

#include "falcon/distributed/context.h"
#include "falcon/model/transformer.h"
#include "falcon/recipe/recipe.h"

namespace falcon::train {

// recipe.device, except that "cuda" without an index means cuda:(LOCAL_RANK mod #GPUs) when
// several ranks run, so the ranks of a node spread over its GPUs.
torch::Device rank_device(const std::string& device, const distributed::DistributedEnv& env);

// Intra-op threads: `threads` when set (> 0), else the node's cores shared by its ranks
// (LOCAL_WORLD_SIZE), else 0 (= every core) for one process.
int rank_threads(int threads, const distributed::DistributedEnv& env);

distributed::DistributedOptions distributed_options(const recipe::DistributedSpec& spec, const torch::Device& device);

// Rank 0's values of every parameter on every rank (initial weights, init.checkpoint, resume).
void broadcast_parameters(distributed::DistributedContext& context, model::CausalLm& model);

// Throws falcon::Error naming `what` and the first rank whose `values` differ from rank 0's
// (e.g. the resume point each rank found), so a mismatch is an error, not a hang later.
void check_same_on_every_rank(distributed::DistributedContext& context, const std::vector<std::int64_t>& values,
                              const std::string& what);

// Whether `mine` is true on any rank (every rank gets the same answer); `mine` itself for one process.
bool true_on_any_rank(distributed::DistributedContext& context, bool mine);

}  // namespace falcon::train
