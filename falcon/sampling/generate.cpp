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

// The one token the chain's mask steps leave for `row`, or -1 when they leave none or several (or
// there are no mask steps). Only masks decide: temperature, top-k and top-p never remove the
// last finite token, so pick() would take this one whatever the model's logits.
int only_allowed_token(SamplerChain& chain, int row, std::vector<float>& scratch) {
  std::fill(scratch.begin(), scratch.end(), 0.0f);
  bool masked = false;
  for (auto& step : chain) {
    if (!step->is_mask()) continue;
    step->apply(row, scratch.data(), static_cast<int>(scratch.size()));
    masked = true;
  }
  if (!masked) return -1;
  int found = -1;
  for (int i = 0; i < static_cast<int>(scratch.size()); ++i) {
    if (scratch[i] == -std::numeric_limits<float>::infinity()) continue;
    if (found >= 0) return -1;
    found = i;
  }
  return found;
}

}  // namespace

SamplerChain make_chain(const SamplingConfig& config, SamplerChain masks) {
  SamplerChain chain = std::move(masks);
  if (config.temperature > 0 && config.temperature != 1.0) chain.push_back(temperature_step(config.temperature));
  if (config.top_k > 0) chain.push_back(top_k_step(config.top_k));
  if (config.top_p < 1.0) chain.push_back(top_p_step(config.top_p));
  return chain;
}

namespace {

// generate's arguments checked; returns the longest prompt's length.
std::size_t check_arguments(const model::ModelConfig& config, const std::vector<std::vector<int>>& prompts,
                            const GenerateOptions& options) {
  if (options.samples_per_prompt < 1 || options.max_new_tokens < 1)
    throw Error("generate: need samples_per_prompt >= 1 and max_new_tokens >= 1");
  if (!options.prompt_keys.empty() && options.prompt_keys.size() != prompts.size())
    throw Error("generate: prompt_keys must have one key per prompt");
  if (options.key_stride > 0 && options.first_sample + options.samples_per_prompt > options.key_stride)
    throw Error("generate: first_sample + samples_per_prompt exceeds key_stride (samples of two prompts would share streams)");
  std::size_t longest = 0;
  for (const auto& p : prompts) {
    if (p.empty()) throw Error("generate: empty prompt");
    longest = std::max(longest, p.size());
  }
  if (static_cast<std::int64_t>(longest) + options.max_new_tokens > config.max_position_embeddings)
    throw Error("generate: a prompt of " + std::to_string(longest) + " tokens plus max_new_tokens " +
                std::to_string(options.max_new_tokens) + " exceeds the model's max_position_embeddings " +
                std::to_string(config.max_position_embeddings) + "; lower max_new_tokens or use a larger model");
  return longest;
}

// The prompts left-padded so every one ends at the last column (the prefill's contract):
// tokens (B, P) and lengths (B,).
std::pair<torch::Tensor, torch::Tensor> left_padded(const std::vector<std::vector<int>>& prompts, std::size_t longest,
                                                    int pad_id) {
  const auto b = static_cast<std::int64_t>(prompts.size()), width = static_cast<std::int64_t>(longest);
  auto padded = torch::full({b, width}, pad_id, torch::kInt64);  // (B, P)
  auto lengths = torch::empty({b}, torch::kInt64);               // (B,)
  for (std::int64_t i = 0; i < b; ++i) {
    const auto len = static_cast<std::int64_t>(prompts[i].size());
    auto row = padded[i].narrow(0, width - len, len);
    for (std::int64_t j = 0; j < len; ++j) row[j] = prompts[i][j];
    lengths[i] = len;
  }
  return {padded, lengths};
}

// Every row's picks: one row per (prompt, sample), each with its own random stream (independent
// of batching), the tokens it took and the tokens it feeds the next decode call.
class Rows {
 public:
  Rows(const RowLayout& layout, const GenerateOptions& options, SamplerChain& chain, GenerateStats& stats, int vocab)
      : out(layout.rows()), options_(options), chain_(chain), stats_(stats), done_(layout.rows(), false),
        picks_(layout.rows(), 0), fed_(layout.rows()), row_logits_(vocab), scratch_(vocab) {
    const int n = layout.samples_per_prompt;
    const std::uint64_t stride = options.key_stride > 0 ? options.key_stride : static_cast<std::uint64_t>(n);
    rngs_.reserve(out.size());
    for (int r = 0; r < layout.rows(); ++r) {
      out[r].prompt = layout.prompt_of(r);
      out[r].sample = r % n;
      const std::uint64_t key = options.prompt_keys.empty() ? static_cast<std::uint64_t>(out[r].prompt)
                                                            : options.prompt_keys[out[r].prompt];
      rngs_.push_back(Rng::for_item(options.seed, key * stride + options.first_sample + out[r].sample));
    }
  }

  // Row r's next pick from its logits (V,), then the tokens the masks force after it (jump-forward).
  void step(int r, const float* logits) {
    fed_[r].clear();
    if (done_[r]) return;
    const int vocab = static_cast<int>(row_logits_.size());
    std::copy(logits, logits + vocab, row_logits_.begin());
    const double lse = log_sum_exp(row_logits_.data(), vocab);
    for (auto& step : chain_) timed(step->is_mask(), [&] { step->apply(r, row_logits_.data(), vocab); });
    int token = -1;
    timed(false, [&] { token = pick(row_logits_.data(), vocab, options_.greedy, rngs_[r]); });
    if (token < 0) {
      out[r].stop = StopReason::kDeadEnd;
      done_[r] = true;
      return;
    }
    out[r].logprob += logits[token] - lse;
    take(r, token);
    // The tokens the masks force next ride along in the same call; their log-probabilities
    // come from its logits. EOS is left to a pick, so a finished row feeds nothing.
    while (options_.jump_forward && !done_[r] && picks_[r] < options_.max_new_tokens) {
      int forced = -1;
      timed(true, [&] { forced = only_allowed_token(chain_, r, scratch_); });
      if (forced < 0 || forced == options_.eos_id) break;
      if (!options_.greedy) (void)rngs_[r].uniform();  // the draw pick() would have made for it
      take(r, forced);
      ++stats_.forced_tokens;
    }
    if (!done_[r] && picks_[r] == options_.max_new_tokens) done_[r] = true;  // stop stays kMaxLength
    // A finished row feeds only forced tokens, whose log-probabilities the call still gives.
    if (done_[r] && fed_[r].size() < 2) fed_[r].clear();
  }

  const std::vector<std::vector<std::int64_t>>& fed() const { return fed_; }

  std::vector<GeneratedSequence> out;

 private:
  template <class Work>
  void timed(bool mask, Work&& work) {
    const auto s = Clock::now();
    work();
    (mask ? stats_.mask_seconds : stats_.sample_seconds) += seconds_since(s);
  }

  // Every step of the chain accepts `token` for row r, and the row's text grows by it.
  void take(int r, int token) {
    for (auto& step : chain_) timed(step->is_mask(), [&] { step->accept(r, token); });
    ++stats_.generated_tokens;
    ++picks_[r];
    if (token == options_.eos_id) {
      out[r].stop = StopReason::kEos;
      done_[r] = true;
    } else {
      out[r].tokens.push_back(token);
      fed_[r].push_back(token);
    }
  }

  const GenerateOptions& options_;
  SamplerChain& chain_;
  GenerateStats& stats_;
  std::vector<Rng> rngs_;
  std::vector<bool> done_;
  std::vector<int> picks_;  // tokens each row took, EOS included: at most max_new_tokens
  std::vector<std::vector<std::int64_t>> fed_;  // what each row feeds the next decode call
  std::vector<float> row_logits_, scratch_;
};

// One decode call on what each row feeds (R rows, up to T tokens each): the forced tokens'
// log-probabilities are added to their rows, and each row's next logits (R, V) come back on the host.
torch::Tensor decode_fed(model::CausalLm& model, model::KvCache& cache, const std::vector<std::vector<std::int64_t>>& fed,
                         std::int64_t widest, int pad_id, std::vector<GeneratedSequence>& out) {
  const int rows = static_cast<int>(fed.size());
  const auto device = model->lm_head_weight().device();
  auto tokens = torch::full({rows, widest}, pad_id, torch::kInt64);  // (R, T), padded
  auto following = torch::zeros({rows, widest}, torch::kInt64);     // (R, T): the token after each
  auto last = torch::zeros({rows}, torch::kInt64);                    // (R,): each row's last fed
  std::vector<std::int64_t> counts(rows);
  for (int r = 0; r < rows; ++r) {
    counts[r] = static_cast<std::int64_t>(fed[r].size());
    const auto offset = static_cast<std::size_t>(r) * widest;
    std::copy(fed[r].begin(), fed[r].end(), tokens.data_ptr<std::int64_t>() + offset);
    if (!fed[r].empty()) std::copy(fed[r].begin() + 1, fed[r].end(), following.data_ptr<std::int64_t>() + offset);
    last.data_ptr<std::int64_t>()[r] = std::max<std::int64_t>(counts[r] - 1, 0);
  }
  auto all = model->decode(tokens.to(device), counts, cache).to(torch::kFloat);  // (R, T, V)
  if (widest > 1) {  // the forced tokens' log-probabilities under the model alone
    auto chosen = all.gather(2, following.to(device).unsqueeze(-1)).squeeze(-1);                  // (R, T)
    auto logprobs = (chosen - all.logsumexp(-1)).to(torch::kCPU, torch::kDouble).contiguous();  // (R, T)
    const double* lp = logprobs.data_ptr<double>();
    for (int r = 0; r < rows; ++r)
      for (std::int64_t j = 0; j + 1 < counts[r]; ++j) out[r].logprob += lp[static_cast<std::size_t>(r) * widest + j];
  }
  const auto vocab = all.size(2);
  auto next = all.gather(1, last.to(device).view({rows, 1, 1}).expand({rows, 1, vocab})).squeeze(1);  // (R, V)
  return next.to(torch::kCPU, torch::kFloat).contiguous();                                               // (R, V)
}

}  // namespace

std::vector<GeneratedSequence> generate(model::CausalLm& model, const std::vector<std::vector<int>>& prompts,
                                        SamplerChain& chain, const GenerateOptions& options, GenerateStats* stats) {
  if (prompts.empty()) return {};
  const auto& config = model->config();
  const std::size_t longest = check_arguments(config, prompts, options);
  const RowLayout layout{static_cast<int>(prompts.size()), options.samples_per_prompt};
  GenerateStats local;
  GenerateStats& st = stats != nullptr ? *stats : local;
  torch::NoGradGuard no_grad;
  const auto device = model->lm_head_weight().device();
  const auto [padded, lengths] = left_padded(prompts, longest, options.pad_id);  // (B, P), (B,)

  const int vocab = static_cast<int>(config.vocab_size);
  Rows rows(layout, options, chain, st, vocab);
  for (auto& step : chain) step->begin(layout);
  auto start = Clock::now();
  model::KvCache cache;
  auto logits = model->prefill(padded.to(device), lengths.to(device), cache)  // (B, V)
                    .repeat_interleave(layout.samples_per_prompt, 0);         // (R, V)
  cache.fork(layout.samples_per_prompt, options.max_new_tokens);
  st.model_seconds += seconds_since(start);
  auto host = logits.to(torch::kCPU, torch::kFloat).contiguous();  // (R, V) each row's next pick
  while (true) {
    const float* data = host.data_ptr<float>();
    std::int64_t widest = 0;
    for (int r = 0; r < layout.rows(); ++r) {
      rows.step(r, data + static_cast<std::size_t>(r) * vocab);
      widest = std::max(widest, static_cast<std::int64_t>(rows.fed()[r].size()));
    }
    ++st.steps;
    if (widest == 0) break;  // every row finished
    start = Clock::now();
    host = decode_fed(model, cache, rows.fed(), widest, options.pad_id, rows.out);  // (R, V)
    st.model_seconds += seconds_since(start);
  }
  return std::move(rows.out);
}

}  // namespace falcon::sampling
