#pragma once
// Each dataset's loss in a run that trains on several, where every micro-batch comes from one of
// them (data.batches: by_dataset). A step's loss is one mean over the count (tokens, groups,
// pairs) of all its micro-batches, so the part of it from dataset d, times that count and over d's
// own count, is d's mean; summed over the steps between two log lines, each dataset's mean over
// that window. One step's line alone would show whichever problem that step drew.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "falcon/train/batch_share.h"
#include "falcon/train/train_step.h"

namespace falcon::train {

class DatasetLosses {
 public:
  explicit DatasetLosses(std::vector<std::string> names);  // data.config d is names[d]

  // One optimizer step: this rank's micro-batches (each with its dataset and count) and what
  // train_step returned for each. A collective: every rank calls it after every step.
  void add_step(const std::vector<MicroBatch>& micro_batches, const std::vector<StepMetrics>& each,
                const BatchShare& share);

  // {name: mean loss} of each dataset with a count since the last take(); then a new window.
  nlohmann::json take();

 private:
  std::vector<std::string> names_;
  std::vector<double> loss_sums_, counts_;  // per dataset, over the window
};

}  // namespace falcon::train
