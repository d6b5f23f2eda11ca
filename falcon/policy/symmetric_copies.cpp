#include "falcon/policy/symmetric_copies.h"

#include <algorithm>

#include "falcon/core/rng.h"
#include "falcon/policy/prompt_text.h"

namespace falcon::policy {
namespace {

constexpr std::uint64_t kCopyStreams = 0x636f70696573ULL;  // "copies": apart from the sampling streams

}  // namespace

std::vector<CopiedItem> copied_items(const RolloutItem& original, int first, int count, std::uint64_t stride,
                                     std::uint64_t seed, const text::Tokenizer& tokenizer, int max_positions) {
  std::vector<CopiedItem> out;
  for (int s = first; s < first + count; ++s) {
    const std::uint64_t key = original.key * stride + static_cast<std::uint64_t>(s);
    CopiedItem copied{original, {}};
    copied.item.key = key;
    if (s > 0) {
      Rng rng = Rng::for_item(seed ^ kCopyStreams, key);
      auto copy = original.problem->symmetric_copy(*original.instance, problems::Solution{}, rng);
      auto prompt = prompt_tokens(*original.problem, *copy.instance, tokenizer);
      const int room = max_positions - static_cast<int>(prompt.size());
      if (room > 0) {
        copied.item.instance = copy.instance;
        copied.item.prompt = std::move(prompt);
        copied.item.max_new_tokens = std::min(original.max_new_tokens, room);
        copied.copy = std::move(copy);
      }
    }
    out.push_back(std::move(copied));
  }
  return out;
}

RolloutSample carried_back(const RolloutSample& sample, const CopiedItem& copied, const RolloutItem& original) {
  if (copied.copy.instance == nullptr) return sample;  // the instance itself
  RolloutSample back = sample;
  auto& outcome = back.outcome;
  if (!outcome.parsed) return back;
  const auto& problem = *original.problem;
  const auto& instance = *original.instance;
  outcome.solution = problems::original_solution(copied.copy, outcome.solution);
  if (outcome.before_repair) outcome.before_repair = problems::original_solution(copied.copy, *outcome.before_repair);
  outcome.feasible = problem.feasible(instance, outcome.solution);
  outcome.objective = problem.objective(instance, outcome.solution);
  back.text = problem.format(instance, outcome.before_repair.value_or(outcome.solution));
  return back;
}

}  // namespace falcon::policy
