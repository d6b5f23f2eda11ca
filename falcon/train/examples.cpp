#include "falcon/train/examples.h"

#include <algorithm>

#include "falcon/core/error.h"

namespace falcon::train {

std::size_t Sequence::trained_tokens() const {
  return solution.size() - static_cast<std::size_t>(std::count(decoder_written.begin(), decoder_written.end(), true));
}

Batch collate(const std::vector<Sequence>& sequences, int pad_id, const torch::Device& device) {
  if (sequences.empty()) throw Error("collate: empty batch");
  std::size_t longest = 0;
  for (const auto& s : sequences) {
    if (s.prompt.empty() || s.solution.empty()) throw Error("collate: a sequence needs a prompt and a solution");
    if (!s.decoder_written.empty() && s.decoder_written.size() != s.solution.size())
      throw Error("collate: decoder_written has " + std::to_string(s.decoder_written.size()) + " flags for " +
                  std::to_string(s.solution.size()) + " solution tokens");
    longest = std::max(longest, s.prompt.size() + s.solution.size() - 1);
  }
  const auto b = static_cast<std::int64_t>(sequences.size()), t = static_cast<std::int64_t>(longest);
  std::vector<std::int64_t> input(b * t, pad_id), target(b * t, pad_id);
  std::vector<float> mask(b * t, 0.0f);
  Batch batch;
  for (std::int64_t i = 0; i < b; ++i) {
    const auto& s = sequences[i];
    std::vector<int> full(s.prompt);
    full.insert(full.end(), s.solution.begin(), s.solution.end());
    const auto n = static_cast<std::int64_t>(full.size()) - 1;
    const auto first_solution_target = static_cast<std::int64_t>(s.prompt.size()) - 1;
    for (std::int64_t j = 0; j < n; ++j) {
      input[i * t + j] = full[j];
      target[i * t + j] = full[j + 1];
      const auto k = j - first_solution_target;  // the target's index in the solution
      const bool written = k >= 0 && !s.decoder_written.empty() && s.decoder_written[k];
      mask[i * t + j] = k >= 0 && !written ? 1.0f : 0.0f;
    }
    batch.tokens += n;
    batch.solution_tokens += static_cast<std::int64_t>(s.trained_tokens());
  }
  batch.input_ids = torch::tensor(input, torch::kInt64).view({b, t}).to(device);  // (B, T)
  batch.targets = torch::tensor(target, torch::kInt64).view({b, t}).to(device);   // (B, T)
  batch.loss_mask = torch::tensor(mask, torch::kFloat).view({b, t}).to(device);   // (B, T)
  return batch;
}

}  // namespace falcon::train
