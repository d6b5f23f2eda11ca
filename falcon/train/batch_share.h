#pragma once
// This process's part of a data-parallel step (falcon/distributed, docs/training.md): the slice
// of each global batch it works on, and the sums over ranks that turn its counts into the global
// counts its losses are divided by. Each rank's loss is then its part of the one-process loss of
// the whole batch, and summing the ranks' gradients (DistributedContext::sum_gradients) gives
// the one-process gradient. The default is one process: the slice is everything, sums are local.
#include <cstdint>
#include <functional>
#include <vector>

#include "falcon/distributed/shard.h"

namespace falcon::distributed {
class DistributedContext;
}

namespace falcon::train {

struct BatchShare {
  int rank = 0;
  int world = 1;
  // Sums over the ranks. A collective: every rank calls it at the same point with the same
  // length, even with an empty slice. Unset with one process.
  std::function<std::vector<double>(const std::vector<double>&)> sum_over_ranks;

  // Rank r's contiguous part of a global batch of `total` rows (distributed::shard_range).
  distributed::IndexRange slice(std::int64_t total) const { return distributed::shard_range(total, rank, world); }
  std::vector<double> global(const std::vector<double>& local) const {
    return sum_over_ranks ? sum_over_ranks(local) : local;
  }
  double global(double local) const { return global(std::vector<double>{local})[0]; }
};

// The share of `context`'s rank; `context` must outlive it.
BatchShare batch_share(distributed::DistributedContext& context);

}  // namespace falcon::train
