#include "falcon/train/dataset_losses.h"

#include <gtest/gtest.h>

#include "falcon/core/error.h"

namespace falcon::train {
namespace {

MicroBatch micro_batch(int dataset, double count) {
  MicroBatch b;
  b.dataset = dataset;
  b.count = count;
  return b;
}

StepMetrics loss_part(double loss) {
  StepMetrics m;
  m.loss = loss;
  return m;
}

// A step of two micro-batches from two datasets: the step's loss is one mean over its 10 tokens,
// so dataset 0's 4 tokens with a summed loss of 8 contribute 0.8 and its own mean is 2.
TEST(DatasetLosses, AStepsPartOverEachDatasetsOwnCountIsItsMean) {
  DatasetLosses losses({"tsp20", "mis50", "jssp6"});
  losses.add_step({micro_batch(0, 4), micro_batch(1, 6)}, {loss_part(8.0 / 10), loss_part(3.0 / 10)}, {});
  const auto window = losses.take();
  EXPECT_EQ(window.size(), 2u) << window.dump();  // jssp6 drew no batch: no entry
  EXPECT_DOUBLE_EQ(window.at("tsp20").get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(window.at("mis50").get<double>(), 0.5);
}

// Over a window, each dataset's mean weighs its steps by their counts; take() starts a new one.
TEST(DatasetLosses, AWindowIsOneMeanOverItsStepsAndTakeStartsANewOne) {
  DatasetLosses losses({"a", "b"});
  losses.add_step({micro_batch(0, 2)}, {loss_part(1.0)}, {});   // mean 1 over 2 tokens
  losses.add_step({micro_batch(0, 6)}, {loss_part(3.0)}, {});   // mean 3 over 6 tokens
  EXPECT_DOUBLE_EQ(losses.take().at("a").get<double>(), (2 * 1.0 + 6 * 3.0) / 8);
  EXPECT_TRUE(losses.take().empty());
  losses.add_step({micro_batch(1, 5)}, {loss_part(0.25)}, {});
  const auto next = losses.take();
  EXPECT_FALSE(next.contains("a"));
  EXPECT_DOUBLE_EQ(next.at("b").get<double>(), 0.25);
}

// With several ranks each holds part of every micro-batch: the parts and counts are summed over
// the ranks first (here two ranks with equal halves), and a step with nothing to count (a
// preference step of degenerate groups only) leaves its dataset out.
TEST(DatasetLosses, SumsOverRanksAndSkipsADatasetWithNoCount) {
  BatchShare two_equal_ranks;
  two_equal_ranks.sum_over_ranks = [](const std::vector<double>& v) {
    auto out = v;
    for (auto& x : out) x *= 2;
    return out;
  };
  DatasetLosses losses({"a", "b"});
  // Each rank: dataset a's 3 of the step's 3 + 0 tokens (global 6), loss part 0.25 of the global
  // mean (global part 0.5): a's mean is 0.5.
  losses.add_step({micro_batch(0, 3), micro_batch(1, 0)}, {loss_part(0.25), loss_part(0.0)}, two_equal_ranks);
  const auto window = losses.take();
  EXPECT_DOUBLE_EQ(window.at("a").get<double>(), 0.5);
  EXPECT_FALSE(window.contains("b"));
}

TEST(DatasetLosses, MetricsForEveryMicroBatchAreRequired) {
  DatasetLosses losses({"a"});
  EXPECT_THROW(losses.add_step({micro_batch(0, 1), micro_batch(0, 1)}, {loss_part(1.0)}, {}), Error);
}

}  // namespace
}  // namespace falcon::train
