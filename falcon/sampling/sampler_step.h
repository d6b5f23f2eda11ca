#pragma once
// The sampler is a chain of small steps over one row's next-token logits (after llama.cpp's
// sampler chain): each step may rewrite logits (temperature) or forbid tokens (set -inf: top-k,
// top-p, grammar mask, semantic mask); the last step picks. A new step (e.g. grammar-aligned
// reweighting) is one class, slotted in where it belongs.
//
// Rows: a generation call decodes B prompts x N samples; row r is sample r % N of prompt r / N.
// Steps that keep per-row state (grammar automata) size it in begin() and advance it in accept().
#include <memory>
#include <string>
#include <vector>

namespace falcon::sampling {

struct RowLayout {
  int prompts = 0;             // B
  int samples_per_prompt = 1;  // N
  int rows() const { return prompts * samples_per_prompt; }
  int prompt_of(int row) const { return row / samples_per_prompt; }
};

class SamplerStep {
 public:
  virtual ~SamplerStep() = default;
  virtual std::string name() const = 0;
  // Steps that constrain the output (grammar, semantic) are timed as "mask" time by the caller.
  virtual bool is_mask() const { return false; }
  virtual void begin(const RowLayout& layout) { (void)layout; }
  // logits: (V,) of row `row`, edited in place; -inf removes a token.
  virtual void apply(int row, float* logits, int vocab) = 0;
  // The token row `row` emitted (after every step's apply).
  virtual void accept(int row, int token) { (void)row, (void)token; }
};

using SamplerChain = std::vector<std::unique_ptr<SamplerStep>>;

}  // namespace falcon::sampling
