#include "falcon/distributed/buckets.h"

#include <fmt/format.h>

#include <map>
#include <tuple>

#include "falcon/core/error.h"

namespace falcon::distributed {

std::vector<std::vector<std::size_t>> plan_buckets(const std::vector<torch::Tensor>& tensors,
                                                   std::int64_t bucket_bytes) {
  if (bucket_bytes < 1) throw Error(fmt::format("plan_buckets: bucket_bytes = {} must be positive", bucket_bytes));
  using Key = std::tuple<int, int, int>;  // dtype, device type, device index
  std::map<Key, std::pair<std::size_t, std::int64_t>> open;  // key -> (bucket index, bytes so far)
  std::vector<std::vector<std::size_t>> buckets;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const auto& t = tensors[i];
    if (!t.defined()) throw Error(fmt::format("plan_buckets: tensor {} is undefined", i));
    const Key key{static_cast<int>(t.scalar_type()), static_cast<int>(t.device().type()), t.device().index()};
    const std::int64_t bytes = t.numel() * static_cast<std::int64_t>(t.element_size());
    auto it = open.find(key);
    if (it == open.end() || it->second.second + bytes > bucket_bytes) {
      buckets.emplace_back();
      it = open.insert_or_assign(key, std::make_pair(buckets.size() - 1, std::int64_t{0})).first;
    }
    buckets[it->second.first].push_back(i);
    it->second.second += bytes;
  }
  return buckets;
}

torch::Tensor flatten_bucket(const std::vector<torch::Tensor>& tensors, const std::vector<std::size_t>& bucket,
                             const torch::Device& device) {
  std::vector<torch::Tensor> flat_parts;
  flat_parts.reserve(bucket.size());
  for (const std::size_t i : bucket) flat_parts.push_back(tensors[i].reshape({-1}));  // (numel_i,)
  return torch::cat(flat_parts).to(device);                                            // (sum numel,)
}

void unflatten_bucket(const torch::Tensor& flat, std::vector<torch::Tensor>& tensors,
                      const std::vector<std::size_t>& bucket) {
  torch::NoGradGuard no_grad;
  std::int64_t offset = 0;
  for (const std::size_t i : bucket) {
    auto& t = tensors[i];
    t.copy_(flat.narrow(0, offset, t.numel()).view(t.sizes()));  // shape of t
    offset += t.numel();
  }
}

}  // namespace falcon::distributed
