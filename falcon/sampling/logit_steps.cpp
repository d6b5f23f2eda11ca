#include "falcon/sampling/logit_steps.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace falcon::sampling {
namespace {

constexpr float kRemoved = -std::numeric_limits<float>::infinity();

class TemperatureStep : public SamplerStep {
 public:
  explicit TemperatureStep(double t) : t_(t) {}
  std::string name() const override { return "temperature"; }
  void apply(int, float* logits, int vocab) override { apply_temperature(logits, vocab, t_); }

 private:
  double t_;
};

class TopKStep : public SamplerStep {
 public:
  explicit TopKStep(int k) : k_(k) {}
  std::string name() const override { return "top_k"; }
  void apply(int, float* logits, int vocab) override { apply_top_k(logits, vocab, k_); }

 private:
  int k_;
};

class TopPStep : public SamplerStep {
 public:
  explicit TopPStep(double p) : p_(p) {}
  std::string name() const override { return "top_p"; }
  void apply(int, float* logits, int vocab) override { apply_top_p(logits, vocab, p_); }

 private:
  double p_;
};

}  // namespace

void apply_temperature(float* logits, int vocab, double temperature) {
  if (temperature <= 0.0 || temperature == 1.0) return;
  const float inv = static_cast<float>(1.0 / temperature);
  for (int i = 0; i < vocab; ++i) logits[i] *= inv;  // -inf stays -inf
}

void apply_top_k(float* logits, int vocab, int k) {
  if (k <= 0 || k >= vocab) return;
  std::vector<float> values(logits, logits + vocab);
  std::nth_element(values.begin(), values.begin() + (k - 1), values.end(), std::greater<float>());
  const float kth = values[k - 1];
  for (int i = 0; i < vocab; ++i)
    if (logits[i] < kth) logits[i] = kRemoved;
}

void apply_top_p(float* logits, int vocab, double p) {
  if (p >= 1.0) return;
  std::vector<int> order;
  order.reserve(vocab);
  for (int i = 0; i < vocab; ++i)
    if (logits[i] != kRemoved) order.push_back(i);
  if (order.empty()) return;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b]; });
  const float top = logits[order.front()];
  double total = 0.0;
  for (int i : order) total += std::exp(static_cast<double>(logits[i] - top));
  double mass = 0.0;
  std::size_t keep = 0;
  while (keep < order.size() && mass < p * total) mass += std::exp(static_cast<double>(logits[order[keep++]] - top));
  keep = std::max<std::size_t>(keep, 1);
  for (std::size_t j = keep; j < order.size(); ++j) logits[order[j]] = kRemoved;
}

std::unique_ptr<SamplerStep> temperature_step(double temperature) { return std::make_unique<TemperatureStep>(temperature); }
std::unique_ptr<SamplerStep> top_k_step(int k) { return std::make_unique<TopKStep>(k); }
std::unique_ptr<SamplerStep> top_p_step(double p) { return std::make_unique<TopPStep>(p); }

}  // namespace falcon::sampling
