#include "falcon/train/examples.h"

#include <algorithm>

#include "falcon/core/error.h"

namespace falcon::train {

Batch collate(const std::vector<Sequence>& sequences, int pad_id, const torch::Device& device) {
  if (sequences.empty()) throw Error("collate: empty batch");
  std::size_t longest = 0;
  for (const auto& s : sequences) {
    if (s.prompt.empty() || s.solution.empty()) throw Error("collate: a sequence needs a prompt and a solution");
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
      mask[i * t + j] = j >= first_solution_target ? 1.0f : 0.0f;
    }
    batch.tokens += n;
    batch.solution_tokens += static_cast<std::int64_t>(s.solution.size());
  }
  batch.input_ids = torch::tensor(input, torch::kInt64).view({b, t}).to(device);  // (B, T)
  batch.targets = torch::tensor(target, torch::kInt64).view({b, t}).to(device);   // (B, T)
  batch.loss_mask = torch::tensor(mask, torch::kFloat).view({b, t}).to(device);   // (B, T)
  return batch;
}

}  // namespace falcon::train
