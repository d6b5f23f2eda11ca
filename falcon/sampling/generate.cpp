#include "falcon/sampling/generate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"
#include "falcon/sampling/logit_steps.h"

namespace falcon::sampling {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// log-sum-exp of a row, for the model's own log-probability of the chosen token.
double log_sum_exp(const float* logits, int vocab) {
  const float top = *std::max_element(logits, logits + vocab);
  double sum = 0.0;
  for (int i = 0; i < vocab; ++i) sum += std::exp(static_cast<double>(logits[i] - top));
  return top + std::log(sum);
}

// Greedy: first maximal finite logit. Sampling: inverse CDF over softmax. -1 when none is finite.
int pick(const float* logits, int vocab, bool greedy, Rng& rng) {
  const float* best = std::max_element(logits, logits + vocab);
  if (*best == -std::numeric_limits<float>::infinity()) return -1;
  if (greedy) return static_cast<int>(best - logits);
  double total = 0.0;
  for (int i = 0; i < vocab; ++i) total += std::exp(static_cast<double>(logits[i] - *best));
  double u = rng.uniform() * total;
  int last_finite = -1;
  for (int i = 0; i < vocab; ++i) {
    if (logits[i] == -std::numeric_limits<float>::infinity()) continue;
    last_finite = i;
    u -= std::exp(static_cast<double>(logits[i] - *best));
    if (u < 0) return i;
  }
  return last_finite;  // rounding left a sliver of mass
}

}  // namespace

SamplerChain make_chain(const SamplingConfig& config, SamplerChain masks) {
  SamplerChain chain = std::move(masks);
  if (config.temperature > 0 && config.temperature != 1.0) chain.push_back(temperature_step(config.temperature));
  if (config.top_k > 0) chain.push_back(top_k_step(config.top_k));
  if (config.top_p < 1.0) chain.push_back(top_p_step(config.top_p));
  return chain;
}

std::vector<GeneratedSequence> generate(model::CausalLm& model, const std::vector<std::vector<int>>& prompts,
                                        SamplerChain& chain, const GenerateOptions& options, GenerateStats* stats) {
  if (prompts.empty()) return {};
  if (options.samples_per_prompt < 1 || options.max_new_tokens < 1)
    throw Error("generate: need samples_per_prompt >= 1 and max_new_tokens >= 1");
  if (!options.prompt_keys.empty() && options.prompt_keys.size() != prompts.size())
    throw Error("generate: prompt_keys must have one key per prompt");
  if (options.key_stride > 0 && options.first_sample + options.samples_per_prompt > options.key_stride)
    throw Error("generate: first_sample + samples_per_prompt exceeds key_stride (samples of two prompts would share streams)");
  const int b = static_cast<int>(prompts.size()), n = options.samples_per_prompt;
  const RowLayout layout{b, n};
  std::size_t longest = 0;
  for (const auto& p : prompts) {
    if (p.empty()) throw Error("generate: empty prompt");
    longest = std::max(longest, p.size());
  }
  const auto& config = model->config();
  if (static_cast<std::int64_t>(longest) + options.max_new_tokens > config.max_position_embeddings)
    throw Error("generate: a prompt of " + std::to_string(longest) + " tokens plus max_new_tokens " +
                std::to_string(options.max_new_tokens) + " exceeds the model's max_position_embeddings " +
                std::to_string(config.max_position_embeddings) + "; lower max_new_tokens or use a larger model");
  GenerateStats local;
  GenerateStats& st = stats != nullptr ? *stats : local;
  torch::NoGradGuard no_grad;
  const auto device = model->lm_head_weight().device();

  // Left-pad so every prompt ends at the last column (the prefill's contract).
  auto padded = torch::full({b, static_cast<std::int64_t>(longest)}, options.pad_id, torch::kInt64);  // (B, P)
  auto lengths = torch::empty({b}, torch::kInt64);                                                    // (B,)
  for (int i = 0; i < b; ++i) {
    const auto len = static_cast<std::int64_t>(prompts[i].size());
    auto row = padded[i].narrow(0, static_cast<std::int64_t>(longest) - len, len);
    for (std::int64_t j = 0; j < len; ++j) row[j] = prompts[i][j];
    lengths[i] = len;
  }

  std::vector<GeneratedSequence> out(layout.rows());
  std::vector<Rng> rngs;
  rngs.reserve(out.size());
  for (int r = 0; r < layout.rows(); ++r) {
    out[r].prompt = layout.prompt_of(r);
    out[r].sample = r % n;
    const std::uint64_t key = options.prompt_keys.empty() ? static_cast<std::uint64_t>(out[r].prompt)
                                                          : options.prompt_keys[out[r].prompt];
    const std::uint64_t stride = options.key_stride > 0 ? options.key_stride : static_cast<std::uint64_t>(n);
    rngs.push_back(Rng::for_item(options.seed, key * stride + options.first_sample + out[r].sample));
  }
  for (auto& step : chain) step->begin(layout);

  auto start = Clock::now();
  model::KvCache cache;
  auto logits = model->prefill(padded.to(device), lengths.to(device), cache)  // (B, V)
                    .repeat_interleave(n, 0);                                 // (R, V)
  cache.fork(n, options.max_new_tokens);
  st.model_seconds += seconds_since(start);

  const int vocab = static_cast<int>(config.vocab_size);
  std::vector<bool> done(out.size(), false);
  std::vector<float> row_logits(vocab);
  std::vector<std::int64_t> next(out.size());  // the token each row feeds to the next step
  for (int t = 0; t < options.max_new_tokens; ++t) {
    auto host = logits.to(torch::kCPU, torch::kFloat).contiguous();  // (R, V)
    const float* data = host.data_ptr<float>();
    int active = 0;
    for (int r = 0; r < layout.rows(); ++r) {
      if (done[r]) {
        next[r] = options.eos_id;  // finished rows ride along; their outputs are ignored
        continue;
      }
      std::copy(data + static_cast<std::size_t>(r) * vocab, data + static_cast<std::size_t>(r + 1) * vocab,
                row_logits.begin());
      const double lse = log_sum_exp(row_logits.data(), vocab);
      for (auto& step : chain) {
        const auto s = Clock::now();
        step->apply(r, row_logits.data(), vocab);
        (step->is_mask() ? st.mask_seconds : st.sample_seconds) += seconds_since(s);
      }
      const auto s = Clock::now();
      const int token = pick(row_logits.data(), vocab, options.greedy, rngs[r]);
      st.sample_seconds += seconds_since(s);
      if (token < 0) {
        out[r].stop = StopReason::kDeadEnd;
        done[r] = true;
        next[r] = options.eos_id;
        continue;
      }
      out[r].logprob += data[static_cast<std::size_t>(r) * vocab + token] - lse;
      for (auto& step : chain) {
        const auto s2 = Clock::now();
        step->accept(r, token);
        (step->is_mask() ? st.mask_seconds : st.sample_seconds) += seconds_since(s2);
      }
      ++st.generated_tokens;
      if (token == options.eos_id) {
        out[r].stop = StopReason::kEos;
        done[r] = true;
      } else {
        out[r].tokens.push_back(token);
        ++active;
      }
      next[r] = token;
    }
    ++st.steps;
    if (active == 0 || t + 1 == options.max_new_tokens) break;  // rows still open at the end: kMaxLength
    start = Clock::now();
    auto fed = torch::from_blob(next.data(), {layout.rows(), 1}, torch::kInt64).to(device, /*non_blocking=*/false,
                                                                                   /*copy=*/true);  // (R, 1)
    logits = model->decode(fed, cache).select(1, 0);  // (R, V)
    st.model_seconds += seconds_since(start);
  }
  return out;
}

}  // namespace falcon::sampling
