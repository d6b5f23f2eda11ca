#pragma once
// Which part of a global batch each rank works on. Contiguous, balanced slices: rank r gets
// [r * total / world, (r + 1) * total / world), so concatenating the ranks' slices in rank
// order gives back 0..total-1 exactly (the one-process batch) and sizes differ by at most one.
#include <cstdint>
#include <vector>

namespace falcon::distributed {

struct IndexRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;  // exclusive
  std::int64_t size() const { return end - begin; }
};

// Throws falcon::Error unless total >= 0 and 0 <= rank < world.
IndexRange shard_range(std::int64_t total, int rank, int world);
std::vector<std::int64_t> shard_indices(std::int64_t total, int rank, int world);

// Factor for this rank's mean loss so that averaging the ranks' gradients (all_reduce_mean)
// gives the gradient of the mean over the whole global batch even when slices differ in size:
// world * size_r / total (1 when total divides evenly; 0 for an empty slice).
double shard_loss_scale(std::int64_t total, int rank, int world);

}  // namespace falcon::distributed
