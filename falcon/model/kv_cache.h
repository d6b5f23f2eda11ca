#pragma once
// Keys and values of past positions for incremental decoding, batched, with one prompt's cache
// shared by its N samples without copying.
//
// Two segments per layer:
//   prefix  (B, Hkv, P, D): the prompts, left-padded; written once by prefill, read by all N
//                           samples of row b (cached_attention.h reads it once per step for all N).
//   samples (B*N, Hkv, C, D): tokens generated after the prompt, C = capacity, `length` used.
// Row r of the decoding batch is sample r % N of prompt r / N. Keys are stored position-major
// (each head's D columns of positions contiguous: (B, Hkv, D, P) memory behind the (B, Hkv, P, D)
// view), so the CPU attention reads blocks of keys in place and a matmul reads k^T as it is;
// values are stored row-major.
#include <cstdint>
#include <vector>

#include "falcon/core/torch/shim.h"

namespace falcon::model {

struct LayerKv {
  torch::Tensor prefix_k, prefix_v;    // (B, Hkv, P, D); keys position-major
  torch::Tensor sample_k, sample_v;    // (B*N, Hkv, C, D), allocated by fork(); keys position-major
};

// The same keys (.., positions, D), stored position-major.
torch::Tensor position_major(const torch::Tensor& keys);

class KvCache {
 public:
  KvCache() = default;

  std::int64_t prompts() const { return prompts_; }           // B
  std::int64_t samples_per_prompt() const { return group_; }  // N
  std::int64_t rows() const { return prompts_ * group_; }     // B*N
  std::int64_t prefix_length() const { return prefix_length_; }  // P (padded)
  // Tokens appended after prefill: the longest row's, and each row's (rows may hold different
  // numbers when decode() is told how many of its tokens each row takes).
  std::int64_t sample_length() const { return sample_length_; }
  const std::vector<std::int64_t>& sample_lengths() const { return row_lengths_; }  // (R)
  std::int64_t capacity() const { return capacity_; }
  bool empty() const { return layers_.empty(); }

  // After prefill: every prompt row now stands for `n` sample rows that share its prefix.
  // `capacity` is the most tokens each sample may append. Only valid before the first append.
  void fork(std::int64_t n, std::int64_t capacity);

  // Bytes held by the cache tensors (prefix counted once): the point of sharing.
  std::int64_t bytes() const;

  // For the model's attention layers.
  std::vector<LayerKv>& layers() { return layers_; }
  const torch::Tensor& prefix_key_mask() const { return prefix_key_mask_; }  // (B, P) additive: 0 or -inf
  const torch::Tensor& prefix_positions() const { return prefix_valid_; }    // (B,) real prompt tokens
  void set_prefix(std::vector<LayerKv> layers, torch::Tensor key_mask, torch::Tensor valid_lengths);
  void advance(const std::vector<std::int64_t>& row_tokens);  // row r by row_tokens[r]

 private:
  std::vector<LayerKv> layers_;
  torch::Tensor prefix_key_mask_;   // (B, P)
  torch::Tensor prefix_valid_;      // (B,) int64
  std::vector<std::int64_t> row_lengths_;  // (R) tokens each row holds after the prefix
  std::int64_t prompts_ = 0, group_ = 1, prefix_length_ = 0, sample_length_ = 0, capacity_ = 0;
};

}  // namespace falcon::model
