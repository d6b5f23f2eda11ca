#include "falcon/policy/rollout.h"

#include <algorithm>

namespace falcon::policy {

std::string detokenize(const text::Tokenizer& tokenizer, const std::vector<int>& tokens) {
  std::string text;
  for (int t : tokens) text += tokenizer.token_bytes(t);
  return text;
}

namespace {

// One generate() call for all of `items`: they must fit together (see rollout()).
std::vector<std::vector<RolloutSample>> rollout_batch(model::CausalLm& model, const text::Tokenizer& tokenizer,
                                                      const std::vector<RolloutItem>& items,
                                                      const RolloutOptions& options, const MaskFactory& masks,
                                                      sampling::GenerateStats* stats) {
  const int k = options.samples_per_item;
  std::vector<std::vector<int>> prompts;
  sampling::GenerateOptions generate_options;
  generate_options.samples_per_prompt = k;
  generate_options.greedy = options.greedy;
  generate_options.seed = options.seed;
  generate_options.first_sample = options.first_sample;
  generate_options.key_stride = options.key_stride;
  generate_options.eos_id = tokenizer.eos_id();
  generate_options.pad_id = tokenizer.pad_id();
  generate_options.max_new_tokens = 1;
  for (const auto& item : items) {
    prompts.push_back(item.prompt);
    generate_options.prompt_keys.push_back(item.key);
    generate_options.max_new_tokens = std::max(generate_options.max_new_tokens, item.max_new_tokens);
  }
  auto chain = sampling::make_chain(options.sampling, masks ? masks(items, k) : sampling::SamplerChain{});
  auto sequences = sampling::generate(model, prompts, chain, generate_options, stats);

  std::vector<std::vector<RolloutSample>> out(items.size());
  for (auto& seq : sequences) {
    const auto& item = items[seq.prompt];
    RolloutSample sample;
    sample.tokens = std::move(seq.tokens);
    sample.stop = seq.stop;
    sample.text = detokenize(tokenizer, sample.tokens);
    sample.outcome = scoring::score_sample(*item.problem, *item.instance, sample.text, options.repair);
    sample.train_tokens = delivered_tokens(sample, item, tokenizer);
    out[seq.prompt].push_back(std::move(sample));
  }
  return out;
}

}  // namespace

std::vector<int> delivered_tokens(const RolloutSample& sample, const RolloutItem& item, const text::Tokenizer& tokenizer) {
  const auto& outcome = sample.outcome;
  const bool own_sentence = outcome.parsed_strict && sample.stop == sampling::StopReason::kEos;
  std::vector<int> tokens;
  if (outcome.feasible && (outcome.repaired || !own_sentence)) {
    tokens = tokenizer.encode(item.problem->format(*item.instance, outcome.solution));
    tokens.push_back(tokenizer.eos_id());
  } else {
    tokens = sample.tokens;
    if (sample.stop == sampling::StopReason::kEos) tokens.push_back(tokenizer.eos_id());
  }
  return tokens;
}

std::vector<std::vector<RolloutSample>> rollout(model::CausalLm& model, const text::Tokenizer& tokenizer,
                                                const std::vector<RolloutItem>& items, const RolloutOptions& options,
                                                const MaskFactory& masks, sampling::GenerateStats* stats) {
  // generate() left-pads every prompt to the longest and gives every row the largest budget, so a
  // batch needs longest prompt + largest max_new_tokens positions. Items that each fit the model but
  // not together (a long prompt beside a long answer) go to consecutive batches; sample streams are
  // keyed by item, so the samples do not depend on the split.
  const auto max_positions = static_cast<std::size_t>(model->config().max_position_embeddings);
  std::vector<std::vector<RolloutSample>> out;
  out.reserve(items.size());
  std::vector<RolloutItem> batch;
  std::size_t longest = 0, budget = 0;
  auto flush = [&] {
    for (auto& samples : rollout_batch(model, tokenizer, batch, options, masks, stats)) out.push_back(std::move(samples));
    batch.clear();
    longest = budget = 0;
  };
  for (const auto& item : items) {
    const std::size_t item_budget = static_cast<std::size_t>(std::max(1, item.max_new_tokens));
    if (!batch.empty() && std::max(longest, item.prompt.size()) + std::max(budget, item_budget) > max_positions) flush();
    batch.push_back(item);
    longest = std::max(longest, item.prompt.size());
    budget = std::max(budget, item_budget);
  }
  if (!batch.empty()) flush();
  return out;
}

}  // namespace falcon::policy
