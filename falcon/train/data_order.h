#pragma once
// The order in which a training stage visits its examples. Position p of a stage's data stream is
// row p % batch_size of global batch p / batch_size; an order maps it to an example's index,
// deterministically in (seed, p), so a resumed or data-parallel run sees the same data.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace falcon::train {

class DataOrder {
 public:
  virtual ~DataOrder() = default;
  virtual std::size_t at(std::int64_t position) = 0;  // the example at `position`
};

// One permutation of all examples per epoch: every batch mixes the datasets.
class EpochOrder final : public DataOrder {
 public:
  EpochOrder(std::size_t size, std::uint64_t seed);
  std::size_t at(std::int64_t position) override;

 private:
  std::size_t size_;
  std::uint64_t seed_;
  std::uint64_t epoch_ = ~0ull;
  std::vector<std::size_t> perm_;
};

// Every batch from one dataset, so a batch pads to its own texts' length and not to the longest
// problem's (a mixed batch of TSP-20 and MVC-50 texts costs what an MVC batch does). Batches come
// in rounds: a round holds batches_per_round[d] batches of dataset d, in an order drawn per round;
// each dataset walks its own examples in a permutation per epoch of its own.
class ByDatasetOrder final : public DataOrder {
 public:
  // dataset_of[i]: the dataset example i came from (0 .. batches_per_round.size() - 1). A dataset
  // with no batches per round is never visited; one with batches needs an example.
  ByDatasetOrder(const std::vector<int>& dataset_of, std::vector<std::int64_t> batches_per_round,
                 std::int64_t batch_size, std::uint64_t seed);
  std::size_t at(std::int64_t position) override;

 private:
  std::int64_t batch_size_;
  std::uint64_t seed_;
  std::vector<std::int64_t> batches_per_round_;
  std::int64_t round_length_ = 0;               // batches in a round: the sum of batches_per_round_
  std::vector<std::vector<std::size_t>> members_;  // dataset -> its examples' indices
  std::vector<EpochOrder> member_orders_;          // dataset -> the order of its members
  std::int64_t round_ = -1;                        // the round cached below
  std::vector<int> round_dataset_;                 // slot -> dataset
  std::vector<std::int64_t> round_rank_;           // slot -> how many slots of its dataset come before it
};

// Another order's examples, window by window (`window_batches` batches of `batch_size` each),
// sorted by length inside the window, cut into batches, and the batches of the window shuffled:
// each batch holds texts of about the same length, so it pads little, while every example is
// still visited as often as `inner` visits it. Sorted by (dataset, length), so batches of a
// by-dataset order stay one dataset each (its windows hold whole batches of each dataset).
class LengthBucketOrder final : public DataOrder {
 public:
  LengthBucketOrder(std::unique_ptr<DataOrder> inner, std::vector<std::int64_t> lengths, std::vector<int> dataset_of,
                    std::int64_t batch_size, std::int64_t window_batches, std::uint64_t seed);
  std::size_t at(std::int64_t position) override;

 private:
  std::unique_ptr<DataOrder> inner_;
  std::vector<std::int64_t> lengths_;
  std::vector<int> dataset_of_;
  std::int64_t batch_size_, window_;  // window_: examples per window
  std::uint64_t seed_;
  std::int64_t cached_ = -1;           // the window laid out below
  std::vector<std::size_t> layout_;    // window position -> example
};

// data.batches: "mixed" (EpochOrder) or "by_dataset" (ByDatasetOrder; batches per round from
// `weights`, one per dataset, or when empty each dataset's examples / batch_size, at least 1, so
// the datasets keep the shares a mixed order gives them). Throws falcon::Error for another name.
std::unique_ptr<DataOrder> make_data_order(const std::string& batches, const std::vector<int>& dataset_of,
                                           int datasets, const std::vector<std::int64_t>& weights,
                                           std::int64_t batch_size, std::uint64_t seed);

}  // namespace falcon::train
