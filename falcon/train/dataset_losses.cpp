#include "falcon/train/dataset_losses.h"

#include <algorithm>

#include "falcon/core/error.h"

namespace falcon::train {

DatasetLosses::DatasetLosses(std::vector<std::string> names)
    : names_(std::move(names)), loss_sums_(names_.size(), 0.0), counts_(names_.size(), 0.0) {}

void DatasetLosses::add_step(const std::vector<MicroBatch>& micro_batches, const std::vector<StepMetrics>& each,
                             const BatchShare& share) {
  if (each.size() != micro_batches.size())
    throw Error("DatasetLosses: " + std::to_string(each.size()) + " micro-batch metrics for " +
                std::to_string(micro_batches.size()) + " micro-batches");
  const std::size_t n = names_.size();
  // [loss part of dataset d..., count of dataset d..., count of micro-batches that mix datasets]
  std::vector<double> local(2 * n + 1, 0.0);
  for (std::size_t m = 0; m < micro_batches.size(); ++m) {
    const int d = micro_batches[m].dataset;
    if (d < 0 || static_cast<std::size_t>(d) >= n) {
      local[2 * n] += micro_batches[m].count;
      continue;
    }
    local[static_cast<std::size_t>(d)] += each[m].loss;
    local[n + static_cast<std::size_t>(d)] += micro_batches[m].count;
  }
  const auto global = share.global(local);
  double step_count = global[2 * n];
  for (std::size_t d = 0; d < n; ++d) step_count += global[n + d];
  step_count = std::max(step_count, 1.0);  // what train_step divided every loss by
  for (std::size_t d = 0; d < n; ++d) {
    loss_sums_[d] += global[d] * step_count;
    counts_[d] += global[n + d];
  }
}

nlohmann::json DatasetLosses::take() {
  auto out = nlohmann::json::object();
  for (std::size_t d = 0; d < names_.size(); ++d)
    if (counts_[d] > 0) out[names_[d]] = loss_sums_[d] / counts_[d];
  std::fill(loss_sums_.begin(), loss_sums_.end(), 0.0);
  std::fill(counts_.begin(), counts_.end(), 0.0);
  return out;
}

}  // namespace falcon::train
