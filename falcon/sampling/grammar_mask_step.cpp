#include "falcon/sampling/grammar_mask_step.h"

#include <limits>

#include "falcon/core/error.h"

namespace falcon::sampling {

void GrammarMaskStep::begin(const RowLayout& layout) {
  if (static_cast<int>(initial_.size()) != layout.prompts)
    throw Error("grammar mask: " + std::to_string(initial_.size()) + " grammar states for " +
                std::to_string(layout.prompts) + " prompts");
  rows_.clear();
  rows_.reserve(layout.rows());
  for (int r = 0; r < layout.rows(); ++r) rows_.push_back(initial_[layout.prompt_of(r)]);
  rejected_ = 0;
}

void GrammarMaskStep::apply(int row, float* logits, int vocab) {
  const auto mask = rows_[row].mask();
  decoding::apply_mask(mask, logits);
  // Ids the automaton does not know (a model vocabulary larger than the tokenizer's) are never allowed.
  for (int id = mask.vocab_size; id < vocab; ++id) logits[id] = -std::numeric_limits<float>::infinity();
}

void GrammarMaskStep::accept(int row, int token) {
  if (!rows_[row].accept(token)) ++rejected_;
}

}  // namespace falcon::sampling
