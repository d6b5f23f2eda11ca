#pragma once
// The grammar (and optional semantic) mask as a sampler step: one decoding::GrammarState per
// row, started from its prompt's state (rows of one prompt copy the same initial state).
#include <vector>

#include "falcon/decoding/grammar_state.h"
#include "falcon/sampling/sampler_step.h"

namespace falcon::sampling {

class GrammarMaskStep : public SamplerStep {
 public:
  // initial[b]: the state for prompt b, copied for each of its samples at begin().
  explicit GrammarMaskStep(std::vector<decoding::GrammarState> initial) : initial_(std::move(initial)) {}
  std::string name() const override { return "grammar"; }
  bool is_mask() const override { return true; }
  void begin(const RowLayout& layout) override;
  void apply(int row, float* logits, int vocab) override;
  void accept(int row, int token) override;

  const decoding::GrammarState& state(int row) const { return rows_[row]; }
  // Rows that were handed a token the mask did not allow (a bug upstream; never expected).
  int rejected() const { return rejected_; }

 private:
  std::vector<decoding::GrammarState> initial_;
  std::vector<decoding::GrammarState> rows_;
  int rejected_ = 0;
};

}  // namespace falcon::sampling
