#include "tools/bench/scoring_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

#include "falcon/train/examples.h"
#include "falcon/train/logprobs.h"
#include "falcon/train/sft.h"
#include "falcon/train/policy_scoring.h"
#include "tools/bench/op_profile.h"

namespace falcon::bench {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<train::Sequence> make_batch(const ScoringBenchOptions& o, int vocab, std::mt19937& rng) {
  std::uniform_int_distribution<int> token(4, vocab - 1), spread(0, std::max(0, o.length_spread));
  std::bernoulli_distribution trained(o.trained_share);
  std::vector<train::Sequence> batch;
  for (int i = 0; i < o.batch; ++i) {
    train::Sequence s;
    for (int t = 0; t < o.prompt_tokens; ++t) s.prompt.push_back(token(rng));
    const int length = std::max(1, o.solution_tokens - spread(rng));
    for (int t = 0; t < length; ++t) {
      s.solution.push_back(token(rng));
      s.decoder_written.push_back(t + 1 < length && !trained(rng));  // EOS is always trained
    }
    batch.push_back(std::move(s));
  }
  return batch;
}

// The step as it was before positions were picked: lm_head on every position from the shortest
// prompt's end on, notes and padding included.
torch::Tensor from_prompt_end_loss(model::CausalLm& model, const std::vector<train::Sequence>& batch) {
  auto b = train::collate(batch, 0, torch::kCPU);
  std::size_t shortest = batch.front().prompt.size();
  for (const auto& s : batch) shortest = std::min(shortest, s.prompt.size());
  const auto first = static_cast<std::int64_t>(shortest) - 1, width = b.input_ids.size(1) - first;
  auto hidden = model->hidden_states(b.input_ids).narrow(1, first, width);                        // (B, T', H)
  auto logp = train::token_logprobs(model->project(hidden), b.targets.narrow(1, first, width));  // (B, T')
  return train::sft_loss(logp, b.loss_mask.narrow(1, first, width));
}

torch::Tensor picked_loss(model::CausalLm& model, const std::vector<train::Sequence>& batch) {
  auto scored = train::score_sequences(model, batch, 0);
  return train::sft_loss(scored.token_logp, scored.mask);
}

}  // namespace

nlohmann::ordered_json measure_scoring(const model::ModelConfig& config, const ScoringBenchOptions& options) {
  torch::manual_seed(1);
  model::CausalLm model(config);
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-4));
  std::mt19937 rng(1);
  const auto batch = make_batch(options, static_cast<int>(config.vocab_size), rng);
  std::int64_t tokens = 0, trained = 0;
  for (const auto& s : batch) {
    tokens += static_cast<std::int64_t>(s.prompt.size() + s.solution.size() - 1);
    trained += static_cast<std::int64_t>(s.trained_tokens());
  }
  const std::int64_t padded = static_cast<std::int64_t>(batch.size()) * train::collate(batch, 0).input_ids.size(1);

  struct Arm {
    const char* name;
    bool picked;
    torch::ScalarType autocast;
    double seconds = 0.0;
  };
  std::vector<Arm> arms = {{"fp32, every position after the prompt", false, torch::kFloat},
                           {"fp32, trained positions", true, torch::kFloat},
                           {"bf16, every position after the prompt", false, torch::kBFloat16},
                           {"bf16, trained positions", true, torch::kBFloat16}};
  const auto step = [&](Arm& arm) {
    model->set_autocast(arm.autocast);
    auto loss = arm.picked ? picked_loss(model, batch) : from_prompt_end_loss(model, batch);
    loss.backward();
    optimizer.step();
    optimizer.zero_grad();
  };
  for (auto& arm : arms) step(arm);  // warm-up: allocator, oneDNN kernels
  for (int round = 0; round < options.rounds; ++round)
    for (auto& arm : arms) {
      std::fprintf(stderr, "bench: scoring round %d/%d, %s ...\n", round + 1, options.rounds, arm.name);
      const auto start = Clock::now();
      for (int i = 0; i < options.steps; ++i) step(arm);
      arm.seconds += std::chrono::duration<double>(Clock::now() - start).count();
    }

  nlohmann::ordered_json out;
  out["batch"] = options.batch;
  out["prompt_tokens"] = options.prompt_tokens;
  out["solution_tokens"] = options.solution_tokens;
  out["trained_share_of_positions"] = static_cast<double>(trained) / static_cast<double>(tokens);
  out["padding_share"] = 1.0 - static_cast<double>(tokens) / static_cast<double>(padded);
  const double steps = static_cast<double>(options.steps) * options.rounds;
  for (const auto& arm : arms)
    out["arms"][arm.name] = {{"seconds_per_step", arm.seconds / steps},
                             {"tokens_per_s", static_cast<double>(tokens) * steps / arm.seconds}};
  if (options.profile_ops > 0) {
    // Apart from the timed rounds: the profiler's own cost would slow them.
    for (auto& arm : arms) {
      std::fprintf(stderr, "bench: scoring profile, %s ...\n", arm.name);
      bool available = true;
      const auto ops = profile_ops([&] { for (int i = 0; i < options.steps; ++i) step(arm); }, &available);
      if (!available) {
        out["profile"] = "this LibTorch has no legacy autograd profiler";
        break;
      }
      double total = 0.0;
      for (const auto& op : ops) total += op.self_ms;
      auto& top = out["profile"][arm.name];
      top["ms_per_step"] = total / options.steps;
      for (std::size_t i = 0; i < ops.size() && i < static_cast<std::size_t>(options.profile_ops); ++i)
        top["ops"].push_back({{"op", ops[i].name},
                              {"ms_per_step", ops[i].self_ms / options.steps},
                              {"share", ops[i].self_ms / total},
                              {"calls_per_step", static_cast<double>(ops[i].calls) / options.steps}});
    }
  }
  const auto rate = [&](int i) { return out["arms"][arms[i].name]["tokens_per_s"].get<double>(); };
  out["speedup_trained_positions_fp32"] = rate(1) / rate(0);
  out["speedup_trained_positions_bf16"] = rate(3) / rate(2);
  out["speedup_bf16_over_fp32_trained_positions"] = rate(3) / rate(1);
  return out;
}

}  // namespace falcon::bench
