#include "falcon/train/examples.h"

#include <gtest/gtest.h>

#include "falcon/core/error.h"

namespace falcon::train {
namespace {

TEST(Collate, ShiftsTargetsAndMasksOnlySolutionTokens) {
  // prompt [2 10 11], solution [20 21 3]  -> full [2 10 11 20 21 3]
  // prompt [2 12],    solution [22 3]     -> full [2 12 22 3]
  auto batch = collate({{{2, 10, 11}, {20, 21, 3}}, {{2, 12}, {22, 3}}}, /*pad_id=*/0);
  ASSERT_EQ(batch.input_ids.sizes(), (std::vector<std::int64_t>{2, 5}));
  auto row = [](const torch::Tensor& t, int i) {
    std::vector<std::int64_t> v(t.size(1));
    for (int j = 0; j < t.size(1); ++j) v[j] = static_cast<std::int64_t>(t[i][j].item<double>());
    return v;
  };
  EXPECT_EQ(row(batch.input_ids, 0), (std::vector<std::int64_t>{2, 10, 11, 20, 21}));
  EXPECT_EQ(row(batch.targets, 0), (std::vector<std::int64_t>{10, 11, 20, 21, 3}));
  EXPECT_EQ(row(batch.loss_mask, 0), (std::vector<std::int64_t>{0, 0, 1, 1, 1}));
  EXPECT_EQ(row(batch.input_ids, 1), (std::vector<std::int64_t>{2, 12, 22, 0, 0}));
  EXPECT_EQ(row(batch.targets, 1), (std::vector<std::int64_t>{12, 22, 3, 0, 0}));
  EXPECT_EQ(row(batch.loss_mask, 1), (std::vector<std::int64_t>{0, 1, 1, 0, 0}));
  EXPECT_EQ(batch.solution_tokens, 5);
  EXPECT_EQ(batch.tokens, 8);
  EXPECT_THROW(collate({}, 0), Error);
}

// Tokens the decoder writes (computed notes) are no targets of the loss, nor counted.
TEST(Collate, DecoderWrittenTokensAreMaskedAndNotCounted) {
  Sequence s{{2, 10}, {20, 21, 22, 3}};
  s.decoder_written = {false, true, true, false};
  EXPECT_EQ(s.trained_tokens(), 2u);
  auto batch = collate({s}, /*pad_id=*/0);
  std::vector<float> mask(batch.loss_mask.data_ptr<float>(), batch.loss_mask.data_ptr<float>() + batch.loss_mask.numel());
  EXPECT_EQ(mask, (std::vector<float>{0, 1, 0, 0, 1}));  // targets 10 20 21 22 3
  EXPECT_EQ(batch.solution_tokens, 2);
  s.decoder_written = {true};
  EXPECT_THROW(collate({s}, 0), Error);
}

}  // namespace
}  // namespace falcon::train
