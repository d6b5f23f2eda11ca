#pragma once
// Gradient buckets: many small tensors are flattened into a few large buffers so a step costs a
// few collectives, not one per parameter (the same idea as PyTorch DDP's 25 MB buckets).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "falcon/core/torch/shim.h"

namespace falcon::distributed {

inline constexpr std::int64_t kDefaultBucketBytes = 25ll << 20;

// Splits tensor indices into buckets of one dtype and one device each, in first-seen order, each
// holding at most `bucket_bytes` (a larger tensor gets a bucket of its own). Deterministic, so
// ranks with the same tensor list plan the same buckets. Throws falcon::Error on an undefined
// tensor or bucket_bytes < 1.
std::vector<std::vector<std::size_t>> plan_buckets(const std::vector<torch::Tensor>& tensors,
                                                   std::int64_t bucket_bytes);

// The bucket's tensors flattened and concatenated, on `device`: (sum of numel,).
torch::Tensor flatten_bucket(const std::vector<torch::Tensor>& tensors, const std::vector<std::size_t>& bucket,
                             const torch::Device& device);

// Copies the slices of `flat` back into the bucket's tensors (in place, across devices).
void unflatten_bucket(const torch::Tensor& flat, std::vector<torch::Tensor>& tensors,
                      const std::vector<std::size_t>& bucket);

}  // namespace falcon::distributed
