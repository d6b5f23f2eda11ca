#include "falcon/train/batch_share.h"

#include "falcon/distributed/context.h"

namespace falcon::train {

BatchShare batch_share(distributed::DistributedContext& context) {
  BatchShare share;
  share.rank = context.rank();
  share.world = context.world_size();
  if (context.distributed())
    share.sum_over_ranks = [&context](const std::vector<double>& local) { return context.all_reduce_sum(local); };
  return share;
}

}  // namespace falcon::train
