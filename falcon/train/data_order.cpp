#include "falcon/train/data_order.h"

#include <algorithm>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"

namespace falcon::train {

EpochOrder::EpochOrder(std::size_t size, std::uint64_t seed) : size_(size), seed_(seed) {}

std::size_t EpochOrder::at(std::int64_t position) {
  const auto epoch = static_cast<std::uint64_t>(position) / size_;
  if (epoch != epoch_ || perm_.empty()) {
    perm_.resize(size_);
    for (std::size_t i = 0; i < size_; ++i) perm_[i] = i;
    Rng rng = Rng::for_item(seed_, epoch);
    rng.shuffle(perm_);
    epoch_ = epoch;
  }
  return perm_[static_cast<std::uint64_t>(position) % size_];
}

ByDatasetOrder::ByDatasetOrder(const std::vector<int>& dataset_of, std::vector<std::int64_t> batches_per_round,
                               std::int64_t batch_size, std::uint64_t seed)
    : batch_size_(batch_size), seed_(seed), batches_per_round_(std::move(batches_per_round)) {
  if (batch_size_ < 1) throw Error("a batch needs at least one example");
  members_.resize(batches_per_round_.size());
  for (std::size_t i = 0; i < dataset_of.size(); ++i) {
    const int d = dataset_of[i];
    if (d < 0 || d >= static_cast<int>(members_.size()))
      throw Error("example " + std::to_string(i) + " names dataset " + std::to_string(d) + " of " +
                  std::to_string(members_.size()));
    members_[static_cast<std::size_t>(d)].push_back(i);
  }
  for (std::size_t d = 0; d < members_.size(); ++d) {
    if (batches_per_round_[d] < 0) throw Error("dataset " + std::to_string(d) + ": negative batches per round");
    if (batches_per_round_[d] > 0 && members_[d].empty())
      throw Error("dataset " + std::to_string(d) + " has batches per round but no training example");
    round_length_ += batches_per_round_[d];
    // Each dataset's own stream, apart from the round draws (stream 0).
    member_orders_.emplace_back(std::max<std::size_t>(members_[d].size(), 1), Rng::for_item(seed_, d + 1).next_u64());
  }
  if (round_length_ == 0) throw Error("no dataset has batches per round");
}

std::size_t ByDatasetOrder::at(std::int64_t position) {
  const std::int64_t batch = position / batch_size_, row = position % batch_size_;
  const std::int64_t round = batch / round_length_, slot = batch % round_length_;
  if (round != round_) {
    round_dataset_.clear();
    for (std::size_t d = 0; d < batches_per_round_.size(); ++d)
      round_dataset_.insert(round_dataset_.end(), static_cast<std::size_t>(batches_per_round_[d]), static_cast<int>(d));
    Rng rng = Rng::for_item(Rng::for_item(seed_, 0).next_u64(), static_cast<std::uint64_t>(round));
    rng.shuffle(round_dataset_);
    round_rank_.assign(round_dataset_.size(), 0);
    std::vector<std::int64_t> seen(batches_per_round_.size(), 0);
    for (std::size_t t = 0; t < round_dataset_.size(); ++t) round_rank_[t] = seen[static_cast<std::size_t>(round_dataset_[t])]++;
    round_ = round;
  }
  const auto d = static_cast<std::size_t>(round_dataset_[static_cast<std::size_t>(slot)]);
  // This is dataset d's batch number round * batches_per_round[d] + rank: its rows continue the
  // dataset's own stream where its previous batch stopped.
  const std::int64_t own_batch = round * batches_per_round_[d] + round_rank_[static_cast<std::size_t>(slot)];
  return members_[d][member_orders_[d].at(own_batch * batch_size_ + row)];
}

LengthBucketOrder::LengthBucketOrder(std::unique_ptr<DataOrder> inner, std::vector<std::int64_t> lengths,
                                     std::vector<int> dataset_of, std::int64_t batch_size, std::int64_t window_batches,
                                     std::uint64_t seed)
    : inner_(std::move(inner)),
      lengths_(std::move(lengths)),
      dataset_of_(std::move(dataset_of)),
      batch_size_(batch_size),
      window_(batch_size * window_batches),
      seed_(seed) {
  if (batch_size < 1 || window_batches < 1) throw Error("length buckets need a batch and a window of at least one");
  if (lengths_.size() != dataset_of_.size()) throw Error("length buckets: one length and one dataset per example");
}

std::size_t LengthBucketOrder::at(std::int64_t position) {
  const std::int64_t window = position / window_;
  if (window != cached_) {
    std::vector<std::size_t> examples(static_cast<std::size_t>(window_));
    for (std::int64_t k = 0; k < window_; ++k) examples[static_cast<std::size_t>(k)] = inner_->at(window * window_ + k);
    std::stable_sort(examples.begin(), examples.end(), [&](std::size_t a, std::size_t b) {
      return std::pair(dataset_of_[a], lengths_[a]) < std::pair(dataset_of_[b], lengths_[b]);
    });
    std::vector<std::int64_t> batches(static_cast<std::size_t>(window_ / batch_size_));
    for (std::size_t b = 0; b < batches.size(); ++b) batches[b] = static_cast<std::int64_t>(b);
    Rng rng = Rng::for_item(seed_, static_cast<std::uint64_t>(window));
    rng.shuffle(batches);
    layout_.resize(examples.size());
    for (std::size_t b = 0; b < batches.size(); ++b)
      for (std::int64_t r = 0; r < batch_size_; ++r)
        layout_[b * static_cast<std::size_t>(batch_size_) + static_cast<std::size_t>(r)] =
            examples[static_cast<std::size_t>(batches[b] * batch_size_ + r)];
    cached_ = window;
  }
  return layout_[static_cast<std::size_t>(position % window_)];
}

std::unique_ptr<DataOrder> make_data_order(const std::string& batches, const std::vector<int>& dataset_of,
                                           int datasets, const std::vector<std::int64_t>& weights,
                                           std::int64_t batch_size, std::uint64_t seed) {
  if (batches == "mixed") return std::make_unique<EpochOrder>(dataset_of.size(), seed);
  if (batches != "by_dataset") throw Error("data.batches: '" + batches + "' is not mixed or by_dataset");
  std::vector<std::int64_t> counts(static_cast<std::size_t>(datasets), 0);  // examples per dataset
  for (int d : dataset_of)
    if (d >= 0 && d < datasets) ++counts[static_cast<std::size_t>(d)];
  std::vector<std::int64_t> per_round = weights;
  if (per_round.empty())
    for (auto n : counts) per_round.push_back(n > 0 ? std::max<std::int64_t>(1, n / batch_size) : 0);
  if (static_cast<int>(per_round.size()) != datasets)
    throw Error("data.weights: " + std::to_string(per_round.size()) + " weights for " + std::to_string(datasets) +
                " datasets (one per data.config)");
  for (int d = 0; d < datasets; ++d)
    if (per_round[static_cast<std::size_t>(d)] > 0 && counts[static_cast<std::size_t>(d)] == 0)
      throw Error("data.config[" + std::to_string(d) + "] has no training example (every prompt over "
                  "data.max_prompt_tokens?); raise that limit or set its data.weights entry to 0");
  return std::make_unique<ByDatasetOrder>(dataset_of, std::move(per_round), batch_size, seed);
}

}  // namespace falcon::train
