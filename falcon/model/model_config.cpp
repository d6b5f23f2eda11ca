#include "falcon/model/model_config.h"

#include "falcon/core/error.h"

namespace falcon::model {

void ModelConfig::validate(const std::string& where) const {
  auto fail = [&](const std::string& what) { throw Error(where + ": " + what); };
  if (vocab_size < 1 || hidden_size < 1 || intermediate_size < 1 || num_hidden_layers < 1)
    fail("vocab_size, hidden_size, intermediate_size and num_hidden_layers must be positive");
  if (num_attention_heads < 1 || hidden_size % num_attention_heads != 0)
    fail("num_attention_heads must divide hidden_size");
  if (num_key_value_heads < 1 || num_attention_heads % num_key_value_heads != 0)
    fail("num_key_value_heads must divide num_attention_heads");
  if (head_dim() % 2 != 0) fail("head_dim = hidden_size / num_attention_heads must be even for rotary embeddings");
}

std::int64_t ModelConfig::parameter_count() const {
  const auto h = hidden_size, kv = num_key_value_heads * head_dim();
  const auto attention = h * h * 2 + h * kv * 2 + (attention_bias ? h + 2 * kv : 0);
  const auto mlp = 3 * h * intermediate_size;
  const auto layer = attention + mlp + 2 * h;
  return vocab_size * h * (tie_word_embeddings ? 1 : 2) + num_hidden_layers * layer + h;
}

double ModelConfig::training_flops_per_token(std::int64_t context) const {
  const double non_embedding = static_cast<double>(parameter_count() - vocab_size * hidden_size *
                                                                        (tie_word_embeddings ? 0 : 1));
  return 6.0 * non_embedding + 12.0 * num_hidden_layers * static_cast<double>(context) * hidden_size;
}

}  // namespace falcon::model
