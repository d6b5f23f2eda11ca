#include "tools/bench/model_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>

#include "falcon/core/progress.h"
#include "falcon/model/transformer.h"

namespace falcon::bench {
namespace {

using Clock = std::chrono::steady_clock;
using json = nlohmann::ordered_json;

void synchronize(const torch::Device& device) {
  if (device.is_cuda()) torch::cuda::synchronize();
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

json measure_matmul_peak(const torch::Device& device, torch::ScalarType dtype) {
  json sizes = json::object();
  double best = 0.0;
  for (const std::int64_t n : {512, 1024, 2048, device.is_cuda() ? 8192 : 1536}) {
    auto a = torch::randn({n, n}, torch::TensorOptions().device(device).dtype(dtype));  // (n, n)
    auto b = torch::randn({n, n}, a.options());
    auto c = torch::matmul(a, b);  // warm-up: thread pool, BLAS buffers
    synchronize(device);
    int reps = 0;
    const auto start = Clock::now();
    double elapsed = 0.0;
    while (elapsed < 0.5 || reps < 3) {
      c = torch::matmul(a, b);
      synchronize(device);
      ++reps;
      elapsed = seconds_since(start);
    }
    const double flops = 2.0 * n * n * n * reps / elapsed;
    sizes[std::to_string(n)] = flops;
    best = std::max(best, flops);
  }
  return json{{"dtype", std::string(c10::toString(dtype))}, {"peak_flops", best}, {"by_size", sizes}};
}

json measure_training(const model::ModelConfig& config, const TrainingBenchOptions& options,
                      const torch::Device& device, torch::ScalarType dtype, double peak_flops) {
  torch::manual_seed(0);
  model::CausalLm lm(config, torch::TensorOptions().device(device).dtype(dtype));
  lm->train();
  torch::optim::AdamW optimizer(lm->parameters(), torch::optim::AdamWOptions(1e-4));
  auto tokens = torch::randint(4, config.vocab_size, {options.batch, options.sequence + 1},
                               torch::TensorOptions().device(device).dtype(torch::kInt64));  // (B, T+1)
  auto inputs = tokens.narrow(1, 0, options.sequence), targets = tokens.narrow(1, 1, options.sequence);
  auto step = [&] {
    optimizer.zero_grad();
    auto logits = lm->forward(inputs);  // (B, T, V)
    auto loss = torch::nn::functional::cross_entropy(logits.reshape({-1, config.vocab_size}), targets.reshape({-1}));
    loss.backward();
    optimizer.step();
  };
  for (int i = 0; i < options.warmup_steps; ++i) step();
  synchronize(device);
  Progress progress("bench training", options.steps);
  const auto start = Clock::now();
  double fastest_step = std::numeric_limits<double>::infinity();
  for (int i = 0; i < options.steps; ++i) {
    const auto step_start = Clock::now();
    step();
    synchronize(device);
    fastest_step = std::min(fastest_step, seconds_since(step_start));
    progress.advance();
  }
  progress.finish();
  const double elapsed = seconds_since(start);
  const double tokens_per_step = static_cast<double>(options.batch * options.sequence);
  const double tokens_per_second = tokens_per_step * options.steps / elapsed;
  const double flops_per_token = config.training_flops_per_token(options.sequence);
  const double flops = tokens_per_second * flops_per_token;
  // The fastest step too: on a shared machine the mean carries other processes' load.
  return json{{"parameters", config.parameter_count()},
              {"batch", options.batch},
              {"sequence", options.sequence},
              {"steps", options.steps},
              {"seconds_per_step", elapsed / options.steps},
              {"tokens_per_second", tokens_per_second},
              {"achieved_flops", flops},
              {"mfu", peak_flops > 0 ? flops / peak_flops : 0.0},
              {"fastest_step_seconds", fastest_step},
              {"fastest_step_mfu", peak_flops > 0 ? tokens_per_step * flops_per_token / fastest_step / peak_flops : 0.0}};
}

namespace {

// Greedy continuation of `prompt` (B, P): with the cache, one prefill then one token per step;
// without, a full forward over everything so far per step. Returns the seconds taken.
double decode_seconds(model::CausalLm& lm, const torch::Tensor& prompt, std::int64_t new_tokens, bool use_cache,
                      const torch::Device& device) {
  torch::NoGradGuard no_grad;
  const auto b = prompt.size(0), p = prompt.size(1);
  synchronize(device);
  const auto start = Clock::now();
  if (use_cache) {
    model::KvCache cache;
    auto lengths = torch::full({b}, p, prompt.options());
    auto next = lm->prefill(prompt, lengths, cache).argmax(-1, /*keepdim=*/true);  // (B, 1)
    cache.fork(/*n=*/1, new_tokens);
    for (std::int64_t i = 1; i < new_tokens; ++i) next = lm->decode(next, cache).select(1, 0).argmax(-1, true);
  } else {
    auto sequence = prompt;  // (B, P + i)
    for (std::int64_t i = 0; i < new_tokens; ++i) {
      auto next = lm->forward(sequence).select(1, -1).argmax(-1, /*keepdim=*/true);  // (B, 1)
      sequence = torch::cat({sequence, next}, 1);
    }
  }
  synchronize(device);
  return seconds_since(start);
}

}  // namespace

json measure_decoding(const model::ModelConfig& config, const DecodingBenchOptions& options,
                      const torch::Device& device, torch::ScalarType dtype) {
  torch::manual_seed(0);
  model::CausalLm lm(config, torch::TensorOptions().device(device).dtype(dtype));
  lm->eval();
  json rows = json::array();
  for (const auto batch : options.batches) {
    auto prompt = torch::randint(4, config.vocab_size, {batch, options.prompt_tokens},
                                 torch::TensorOptions().device(device).dtype(torch::kInt64));  // (B, P)
    decode_seconds(lm, prompt, 8, /*use_cache=*/true, device);  // warm-up
    const double cached = decode_seconds(lm, prompt, options.new_tokens, /*use_cache=*/true, device);
    json row{{"batch", batch},
             {"prompt_tokens", options.prompt_tokens},
             {"new_tokens", options.new_tokens},
             {"kv_cache_tokens_per_second", batch * options.new_tokens / cached}};
    if (options.without_cache) {
      std::fprintf(stderr, "bench decoding: batch %lld without KV cache ...\n", static_cast<long long>(batch));
      const double uncached = decode_seconds(lm, prompt, options.new_tokens, /*use_cache=*/false, device);
      row["no_cache_tokens_per_second"] = batch * options.new_tokens / uncached;
      row["kv_cache_speedup"] = uncached / cached;
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace falcon::bench
