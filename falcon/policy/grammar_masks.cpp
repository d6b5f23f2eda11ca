#include "falcon/policy/grammar_masks.h"

#include "falcon/decoding/vocabulary.h"
#include "falcon/sampling/grammar_mask_step.h"

namespace falcon::policy {

MaskFactory make_mask_factory(const text::Tokenizer& tokenizer, bool grammar, const decoding::GrammarOptions& options) {
  if (!grammar && !options.semantic && !options.computed_notes) return {};
  auto vocabulary = std::make_shared<decoding::Vocabulary>(decoding::Vocabulary::from_tokenizer(tokenizer));
  decoding::GrammarOptions used = options;
  used.free_text = !grammar;  // the notes without the grammar: any text, the notes still written
  return [vocabulary, options = used](const std::vector<RolloutItem>& items, int) {
    std::vector<decoding::GrammarState> initial;
    for (const auto& item : items)
      initial.push_back(decoding::make_grammar_state(*item.problem, item.instance, *vocabulary, options));
    sampling::SamplerChain chain;
    chain.push_back(std::make_unique<sampling::GrammarMaskStep>(std::move(initial)));
    return chain;
  };
}

}  // namespace falcon::policy
