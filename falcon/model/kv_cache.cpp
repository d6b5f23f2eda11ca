#include "falcon/model/kv_cache.h"

#include <algorithm>
#include <string>

#include "falcon/core/error.h"

namespace falcon::model {

torch::Tensor position_major(const torch::Tensor& keys) {
  return keys.transpose(-1, -2).contiguous().transpose(-1, -2);
}

void KvCache::set_prefix(std::vector<LayerKv> layers, torch::Tensor key_mask, torch::Tensor valid_lengths) {
  layers_ = std::move(layers);
  prefix_key_mask_ = std::move(key_mask);
  prefix_valid_ = std::move(valid_lengths);
  prompts_ = prefix_key_mask_.size(0);
  prefix_length_ = prefix_key_mask_.size(1);
  group_ = 1;
  sample_length_ = 0;
  capacity_ = 0;
  row_lengths_.assign(prompts_, 0);
}

void KvCache::fork(std::int64_t n, std::int64_t capacity) {
  if (empty()) throw Error("KvCache::fork: run prefill first");
  if (sample_length_ > 0) throw Error("KvCache::fork: the cache already holds generated tokens");
  if (n < 1 || capacity < 1) throw Error("KvCache::fork: need n >= 1 samples and capacity >= 1 tokens");
  group_ = n;
  capacity_ = capacity;
  row_lengths_.assign(prompts_ * n, 0);
  for (auto& layer : layers_) {
    const auto& k = layer.prefix_k;  // (B, Hkv, P, D)
    const auto rows = prompts_ * n, heads = k.size(1), d = k.size(3);
    layer.sample_k = torch::empty({rows, heads, d, capacity}, k.options()).transpose(2, 3);  // (B*N, Hkv, C, D)
    layer.sample_v = torch::empty({rows, heads, capacity, d}, k.options());                  // (B*N, Hkv, C, D)
  }
}

void KvCache::advance(const std::vector<std::int64_t>& row_tokens) {
  if (row_tokens.size() != row_lengths_.size())
    throw Error("KvCache::advance: " + std::to_string(row_tokens.size()) + " rows for a cache of " +
                std::to_string(row_lengths_.size()));
  for (std::size_t r = 0; r < row_tokens.size(); ++r) {
    row_lengths_[r] += row_tokens[r];
    sample_length_ = std::max(sample_length_, row_lengths_[r]);
  }
}

std::int64_t KvCache::bytes() const {
  std::int64_t total = 0;
  for (const auto& layer : layers_)
    for (const auto* t : {&layer.prefix_k, &layer.prefix_v, &layer.sample_k, &layer.sample_v})
      if (t->defined()) total += t->numel() * static_cast<std::int64_t>(t->element_size());
  return total;
}

}  // namespace falcon::model
