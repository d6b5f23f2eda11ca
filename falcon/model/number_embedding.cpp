#include "falcon/model/number_embedding.h"

#include <cmath>

#include "falcon/core/error.h"

namespace falcon::model {

void init_number_embeddings(torch::Tensor embedding, const std::vector<std::pair<int, int>>& token_values,
                            double init_std, const NumberEmbeddingOptions& options) {
  if (embedding.dim() != 2) throw Error("number embedding: the embedding must be (vocab, hidden)");
  const std::int64_t vocab = embedding.size(0), hidden = embedding.size(1);
  const std::int64_t f = options.frequencies > 0 ? options.frequencies : hidden / 8;
  if (f < 1 || 2 * f > hidden)
    throw Error("number embedding: " + std::to_string(f) + " frequencies need " + std::to_string(2 * f) +
                " columns but the hidden size is " + std::to_string(hidden));
  if (!(options.min_period > 0 && options.max_period >= options.min_period))
    throw Error("number embedding: periods must satisfy 0 < min_period <= max_period");
  // a * sqrt(F) = init_std * sqrt(H): the features weigh as much as a random row would.
  const double amplitude = init_std * std::sqrt(static_cast<double>(hidden) / static_cast<double>(f));
  const double ratio = f > 1 ? std::log(options.max_period / options.min_period) / static_cast<double>(f - 1) : 0.0;
  std::vector<float> row(2 * f);
  torch::NoGradGuard no_grad;
  for (const auto& [id, value] : token_values) {
    if (id < 0 || id >= vocab)
      throw Error("number embedding: token id " + std::to_string(id) + " outside the vocabulary of " +
                  std::to_string(vocab));
    for (std::int64_t k = 0; k < f; ++k) {
      const double period = options.min_period * std::exp(ratio * static_cast<double>(k));
      const double angle = 2.0 * M_PI * static_cast<double>(value) / period;
      row[2 * k] = static_cast<float>(amplitude * std::cos(angle));
      row[2 * k + 1] = static_cast<float>(amplitude * std::sin(angle));
    }
    auto features = torch::from_blob(row.data(), {2 * f}, torch::kFloat32);  // (2F,)
    embedding[id].slice(0, 0, 2 * f).copy_(features);
  }
}

}  // namespace falcon::model
