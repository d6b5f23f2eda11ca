#include "falcon/distributed/shard.h"

#include <fmt/format.h>

#include "falcon/core/error.h"

namespace falcon::distributed {

IndexRange shard_range(std::int64_t total, int rank, int world) {
  if (total < 0 || world < 1 || rank < 0 || rank >= world) {
    throw Error(fmt::format("shard_range(total={}, rank={}, world={}): need total >= 0 and 0 <= rank < world", total,
                            rank, world));
  }
  // total * rank stays far below 2^63 for any batch that fits in memory.
  return {total * rank / world, total * (rank + 1) / world};
}

std::vector<std::int64_t> shard_indices(std::int64_t total, int rank, int world) {
  const IndexRange range = shard_range(total, rank, world);
  std::vector<std::int64_t> indices;
  indices.reserve(static_cast<std::size_t>(range.size()));
  for (std::int64_t i = range.begin; i < range.end; ++i) indices.push_back(i);
  return indices;
}

double shard_loss_scale(std::int64_t total, int rank, int world) {
  const IndexRange range = shard_range(total, rank, world);
  if (total == 0) return 0.0;
  return static_cast<double>(world) * static_cast<double>(range.size()) / static_cast<double>(total);
}

}  // namespace falcon::distributed
