#pragma once
// The stateless steps: temperature, top-k, top-p (nucleus). Pure functions on a logit row, so
// they are tested on hand-made rows; the SamplerStep wrappers only call them.
#include <cstdint>
#include <memory>

#include "falcon/sampling/sampler_step.h"

namespace falcon::sampling {

// logits /= temperature (temperature > 0; 0 means greedy and is handled by the picker).
void apply_temperature(float* logits, int vocab, double temperature);
// Keeps the k largest finite logits (ties at the k-th value kept), -inf elsewhere. k <= 0: no-op.
void apply_top_k(float* logits, int vocab, int k);
// Keeps the smallest set of most likely tokens whose probability reaches p (at least one).
// p >= 1: no-op.
void apply_top_p(float* logits, int vocab, double p);

std::unique_ptr<SamplerStep> temperature_step(double temperature);
std::unique_ptr<SamplerStep> top_k_step(int k);
std::unique_ptr<SamplerStep> top_p_step(double p);

}  // namespace falcon::sampling
