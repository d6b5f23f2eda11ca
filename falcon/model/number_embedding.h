#pragma once
// Fourier-feature starting values for the embedding rows of number tokens (xVal / FoNE-style
// number embeddings, applied at initialisation only). A from-scratch model otherwise has to learn
// from data that piece "873" lies near "870": with a few thousand training instances it does not
// (experiments/tokenizer_learning). With these rows, the dot product of two numbers' embeddings
// starts as a proximity kernel sum_f cos(2 pi (u - v) / T_f), which attention can use at once.
// The rows keep their random part, so every number stays distinguishable; training moves them freely.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "falcon/core/torch/shim.h"

namespace falcon::model {

struct NumberEmbeddingOptions {
  int frequencies = 0;          // F: features use the first 2F columns; 0 = hidden_size / 8
  double min_period = 8.0;      // shortest period T_1 (in units of the number)
  double max_period = 2000.0;   // longest period T_F; periods are log-spaced in between
};

// Token ids whose piece is a plain decimal integer 0..max_value without leading zeros ("0", "12",
// "873"), with that value. `token_bytes(id)` is the token's text.
template <typename Tokenizer>
std::vector<std::pair<int, int>> number_tokens(const Tokenizer& tokenizer, int max_value = 999) {
  std::vector<std::pair<int, int>> out;
  for (int id = 0; id < tokenizer.vocab_size(); ++id) {
    const std::string& text = tokenizer.token_bytes(id);
    if (text.empty() || text.size() > 9 || (text.size() > 1 && text[0] == '0')) continue;
    bool digits = true;
    for (char c : text) digits = digits && c >= '0' && c <= '9';
    if (!digits) continue;
    const int value = std::stoi(text);
    if (value <= max_value) out.emplace_back(id, value);
  }
  return out;
}

// Overwrites columns [0, 2F) of each listed row of `embedding` (V, H) with
// a * [cos(2 pi v / T_f), sin(2 pi v / T_f)]_f, where a makes that part's norm equal to the norm
// a normal(0, `init_std`) row of width H would have. Throws falcon::Error on an id outside
// [0, V) or 2F > H.
void init_number_embeddings(torch::Tensor embedding, const std::vector<std::pair<int, int>>& token_values,
                            double init_std, const NumberEmbeddingOptions& options = {});

}  // namespace falcon::model
