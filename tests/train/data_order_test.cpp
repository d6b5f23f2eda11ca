#include "falcon/train/data_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "falcon/core/error.h"

namespace falcon::train {
namespace {

TEST(EpochOrder, VisitsEveryExampleOncePerEpochInANewOrder) {
  EpochOrder order(10, /*seed=*/7);
  std::vector<std::size_t> first, second;
  for (int p = 0; p < 10; ++p) first.push_back(order.at(p));
  for (int p = 10; p < 20; ++p) second.push_back(order.at(p));
  EXPECT_EQ(std::set<std::size_t>(first.begin(), first.end()).size(), 10u);
  EXPECT_EQ(std::set<std::size_t>(second.begin(), second.end()).size(), 10u);
  EXPECT_NE(first, second);
  EXPECT_EQ(order.at(3), first[3]);  // going back to an earlier epoch draws it again, the same
}

// Datasets of 12, 6 and 3 examples, interleaved as load_examples leaves them.
std::vector<int> three_datasets() {
  std::vector<int> dataset_of;
  for (int i = 0; i < 12; ++i) {
    dataset_of.push_back(0);
    if (i < 6) dataset_of.push_back(1);
    if (i < 3) dataset_of.push_back(2);
  }
  return dataset_of;
}

TEST(ByDatasetOrder, EveryBatchComesFromOneDatasetInTheWeightsShares) {
  const auto dataset_of = three_datasets();
  const std::int64_t batch = 2;
  ByDatasetOrder order(dataset_of, /*batches_per_round=*/{3, 2, 1}, batch, /*seed=*/5);
  std::map<int, int> batches_of;
  std::map<int, std::vector<std::size_t>> visits;  // dataset -> examples in the order visited
  const int rounds = 4;
  for (std::int64_t b = 0; b < rounds * 6; ++b) {
    const int d = dataset_of[order.at(b * batch)];
    ++batches_of[d];
    for (std::int64_t r = 0; r < batch; ++r) {
      const auto i = order.at(b * batch + r);
      ASSERT_EQ(dataset_of[i], d) << "batch " << b << " row " << r;
      visits[d].push_back(i);
    }
  }
  EXPECT_EQ(batches_of[0], 3 * rounds);
  EXPECT_EQ(batches_of[1], 2 * rounds);
  EXPECT_EQ(batches_of[2], 1 * rounds);
  // Each dataset walks its own examples epoch by epoch: every 12 (6, 3) visits hold each once.
  const std::map<int, std::size_t> sizes = {{0, 12}, {1, 6}, {2, 3}};
  for (const auto& [d, seen] : visits)
    for (std::size_t e = 0; e + sizes.at(d) <= seen.size(); e += sizes.at(d))
      EXPECT_EQ(std::set<std::size_t>(seen.begin() + e, seen.begin() + e + sizes.at(d)).size(), sizes.at(d))
          << "dataset " << d << " epoch " << e / sizes.at(d);
}

TEST(ByDatasetOrder, IsTheSameWhateverOrderThePositionsAreAskedIn) {
  // A resumed run (or another rank) asks from the middle: the answer must not depend on history.
  const auto dataset_of = three_datasets();
  ByDatasetOrder forward(dataset_of, {3, 2, 1}, 4, 9), backward(dataset_of, {3, 2, 1}, 4, 9);
  std::vector<std::size_t> a, b(200);
  for (int p = 0; p < 200; ++p) a.push_back(forward.at(p));
  for (int p = 199; p >= 0; --p) b[static_cast<std::size_t>(p)] = backward.at(p);
  EXPECT_EQ(a, b);
  ByDatasetOrder other_seed(dataset_of, {3, 2, 1}, 4, 10);
  std::vector<std::size_t> c;
  for (int p = 0; p < 200; ++p) c.push_back(other_seed.at(p));
  EXPECT_NE(a, c);
}

TEST(MakeDataOrder, WithoutWeightsEachDatasetKeepsItsShareOfTheExamples) {
  const auto dataset_of = three_datasets();  // 12, 6 and 3 examples: 4, 2 and 1 batches of 3
  auto order = make_data_order("by_dataset", dataset_of, 3, {}, 3, 1);
  std::map<int, int> batches_of;
  for (std::int64_t b = 0; b < 7 * 10; ++b) ++batches_of[dataset_of[order->at(b * 3)]];
  EXPECT_EQ(batches_of[0], 40);
  EXPECT_EQ(batches_of[1], 20);
  EXPECT_EQ(batches_of[2], 10);
  // A zero weight leaves a dataset out.
  auto without_last = make_data_order("by_dataset", dataset_of, 3, {1, 1, 0}, 3, 1);
  for (std::int64_t p = 0; p < 300; ++p) EXPECT_NE(dataset_of[without_last->at(p)], 2);
}

TEST(MakeDataOrder, MixedIsTheEpochOrderOfAllExamples) {
  const auto dataset_of = three_datasets();
  auto order = make_data_order("mixed", dataset_of, 3, {}, 4, 11);
  EpochOrder same(dataset_of.size(), 11);
  for (int p = 0; p < 50; ++p) EXPECT_EQ(order->at(p), same.at(p));
}

TEST(MakeDataOrder, RefusesWeightsThatDoNotFitTheDatasets) {
  const auto dataset_of = three_datasets();
  EXPECT_THROW(make_data_order("by_dataset", dataset_of, 3, {1, 1}, 2, 1), Error);
  EXPECT_THROW(make_data_order("shuffled", dataset_of, 3, {}, 2, 1), Error);
  // Weight for a dataset that has no example left (every prompt too long): named, with the fix.
  try {
    make_data_order("by_dataset", dataset_of, 4, {1, 1, 1, 1}, 2, 1);
    FAIL() << "a weighted dataset with no example was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("data.config[3]"), std::string::npos) << e.what();
  }
}

// 64 examples of lengths 10..73 in a random order: windows of 4 batches of 4 sorted by length
// pad far less, visit the same examples as the order inside, and keep by-dataset batches whole.
TEST(LengthBucketOrder, BatchesOfOneLengthPadLessAndVisitTheSameExamples) {
  const std::int64_t batch = 4, window = 4;
  std::vector<std::int64_t> lengths;
  for (int i = 0; i < 64; ++i) lengths.push_back(10 + (i * 37) % 64);
  auto padding = [&](DataOrder& order) {
    std::int64_t real = 0, padded = 0;
    for (std::int64_t b = 0; b < 16; ++b) {
      std::int64_t longest = 0;
      for (std::int64_t r = 0; r < batch; ++r) {
        const auto len = lengths[order.at(b * batch + r)];
        real += len;
        longest = std::max(longest, len);
      }
      padded += longest * batch;
    }
    return 1.0 - static_cast<double>(real) / static_cast<double>(padded);
  };
  EpochOrder plain(64, 3);
  LengthBucketOrder bucketed(std::make_unique<EpochOrder>(64, 3), lengths, std::vector<int>(64, 0), batch, window, 9);
  const double before = padding(plain), after = padding(bucketed);
  EXPECT_LT(after, before / 2) << before << " -> " << after;
  std::multiset<std::size_t> a, b;
  for (int p = 0; p < 64; ++p) {
    a.insert(plain.at(p));
    b.insert(bucketed.at(p));
  }
  EXPECT_EQ(a, b);
  // The same whatever order the positions are asked in (a resumed run asks from the middle).
  LengthBucketOrder again(std::make_unique<EpochOrder>(64, 3), lengths, std::vector<int>(64, 0), batch, window, 9);
  for (int p = 63; p >= 0; --p) EXPECT_EQ(again.at(p), bucketed.at(p)) << p;

  const auto dataset_of = three_datasets();  // 21 examples in three datasets
  std::vector<std::int64_t> lens(dataset_of.size());
  for (std::size_t i = 0; i < lens.size(); ++i) lens[i] = static_cast<std::int64_t>((i * 7) % 11);
  LengthBucketOrder by_dataset(std::make_unique<ByDatasetOrder>(dataset_of, std::vector<std::int64_t>{3, 2, 1}, 2, 5),
                               lens, dataset_of, /*batch_size=*/2, /*window_batches=*/6, 11);
  for (std::int64_t b = 0; b < 24; ++b)
    EXPECT_EQ(dataset_of[by_dataset.at(2 * b)], dataset_of[by_dataset.at(2 * b + 1)]) << "batch " << b;
}

}  // namespace
}  // namespace falcon::train
