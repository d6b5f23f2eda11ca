#include "falcon/model/number_embedding.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "falcon/core/error.h"

namespace falcon::model {
namespace {

// A vocabulary stand-in: number_tokens only needs vocab_size() and token_bytes().
struct FakeTokenizer {
  std::vector<std::string> pieces;
  int vocab_size() const { return static_cast<int>(pieces.size()); }
  const std::string& token_bytes(int id) const { return pieces[id]; }
};

TEST(NumberEmbedding, FindsPlainDecimalPiecesOnly) {
  const FakeTokenizer tok{{"", "0", "12", "873", "07", " 12", "1a", "1000", "999", ":(", "-3"}};
  const auto found = number_tokens(tok);
  const std::vector<std::pair<int, int>> expected = {{1, 0}, {2, 12}, {3, 873}, {8, 999}};
  EXPECT_EQ(found, expected);
}

float dot_features(const torch::Tensor& e, int a, int b, std::int64_t columns) {
  return (e[a].slice(0, 0, columns) * e[b].slice(0, 0, columns)).sum().item<float>();
}

TEST(NumberEmbedding, FeaturesMakeNearbyNumbersSimilar) {
  torch::manual_seed(0);
  auto embedding = torch::randn({1000, 64}) * 0.02;  // (V, H)
  const auto untouched = embedding.clone();
  std::vector<std::pair<int, int>> values;
  for (int v = 0; v < 1000; v += 2) values.emplace_back(v, v);  // even ids hold their own value
  init_number_embeddings(embedding, values, 0.02);
  const std::int64_t columns = 2 * (64 / 8);

  // The features' norm equals a random row's expected norm, 0.02 * sqrt(H).
  EXPECT_NEAR(embedding[500].slice(0, 0, columns).norm().item<float>(), 0.02 * std::sqrt(64.0), 1e-5);
  // Proximity kernel: 500 is closer to 510 than to 600, and to 600 than to 900 (on average over
  // anchors, since a sum of cosines ripples).
  double near = 0, mid = 0, far = 0;
  for (int a = 100; a < 400; a += 2) {
    near += dot_features(embedding, a, a + 10, columns);
    mid += dot_features(embedding, a, a + 100, columns);
    far += dot_features(embedding, a, a + 500, columns);
  }
  EXPECT_GT(near, mid);
  EXPECT_GT(mid, far);
  // Columns beyond the features and the rows of non-number tokens keep their random values.
  EXPECT_TRUE(torch::equal(embedding.slice(1, columns), untouched.slice(1, columns)));
  EXPECT_TRUE(torch::equal(embedding[1], untouched[1]));
}

TEST(NumberEmbedding, RejectsBadShapesAndIds) {
  auto embedding = torch::zeros({10, 8});
  EXPECT_THROW(init_number_embeddings(embedding, {{10, 3}}, 0.02), Error);
  NumberEmbeddingOptions too_many;
  too_many.frequencies = 5;  // 10 columns > 8
  EXPECT_THROW(init_number_embeddings(embedding, {{1, 3}}, 0.02, too_many), Error);
  EXPECT_THROW(init_number_embeddings(torch::zeros({10}), {{1, 3}}, 0.02), Error);
}

}  // namespace
}  // namespace falcon::model
