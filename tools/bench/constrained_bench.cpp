#include <chrono>

#include "tools/bench/model_bench.h"
#include "falcon/decoding/grammar_state.h"
#include "falcon/problems/registry.h"
#include "falcon/sampling/generate.h"
#include "falcon/sampling/grammar_mask_step.h"

namespace falcon::bench {

nlohmann::ordered_json measure_constrained_decoding(const model::ModelConfig& config,
                                                    const ConstrainedBenchOptions& options,
                                                    const torch::Device& device, torch::ScalarType dtype) {
  torch::manual_seed(0);
  model::CausalLm lm(config, torch::TensorOptions().device(device).dtype(dtype));
  lm->eval();
  const auto vocabulary = decoding::Vocabulary::synthetic(static_cast<int>(config.vocab_size), /*seed=*/1);
  const auto& tsp = problems::problem_by_name("tsp");
  const int prompts = static_cast<int>(options.batch / options.samples_per_prompt);
  std::vector<std::vector<int>> prompt_ids;
  std::vector<decoding::GrammarState> states;
  for (int p = 0; p < prompts; ++p) {
    std::shared_ptr<const problems::Instance> instance = tsp.generate({options.n}, 100 + p);
    states.push_back(decoding::make_grammar_state(tsp, instance, vocabulary));
    std::vector<int> ids(64);
    for (int j = 0; j < 64; ++j) ids[j] = 4 + (p * 131 + j * 17) % (static_cast<int>(config.vocab_size) - 4);
    prompt_ids.push_back(ids);
  }
  sampling::GenerateOptions go;
  go.samples_per_prompt = options.samples_per_prompt;
  go.max_new_tokens = options.max_new_tokens;
  go.eos_id = vocabulary.eos_id();
  auto run = [&](bool constrained) {
    sampling::SamplerChain chain;
    if (constrained) chain.push_back(std::make_unique<sampling::GrammarMaskStep>(states));
    sampling::GenerateStats stats;
    const auto start = std::chrono::steady_clock::now();
    sampling::generate(lm, prompt_ids, chain, go, &stats);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return nlohmann::ordered_json{{"tokens", stats.generated_tokens},
                                  {"steps", stats.steps},
                                  {"seconds", seconds},
                                  {"tokens_per_second", stats.generated_tokens / seconds},
                                  {"model_seconds", stats.model_seconds},
                                  {"mask_seconds", stats.mask_seconds},
                                  {"sample_seconds", stats.sample_seconds}};
  };
  run(true);  // warm-up: compiles the automaton, sizes the buffers
  // Alternate the two modes and keep each one's fastest round, so load from other processes
  // hits both alike.
  nlohmann::ordered_json free, constrained;
  for (int round = 0; round < 3; ++round) {
    auto f = run(false), c = run(true);
    if (free.is_null() || f["seconds"].get<double>() < free["seconds"].get<double>()) free = f;
    if (constrained.is_null() || c["seconds"].get<double>() < constrained["seconds"].get<double>()) constrained = c;
  }
  // Per decoding step, so rows that stop early (EOS in an accepting state) do not skew the ratio.
  const double free_step = free["seconds"].get<double>() / free["steps"].get<double>();
  const double constrained_step = constrained["seconds"].get<double>() / constrained["steps"].get<double>();
  return {{"batch", options.batch},
          {"samples_per_prompt", options.samples_per_prompt},
          {"n", options.n},
          {"vocab", config.vocab_size},
          {"unconstrained", free},
          {"grammar", constrained},
          {"step_time_ratio_unconstrained_over_grammar", free_step / constrained_step},
          // What the mask itself costs, independent of model-time noise.
          {"mask_fraction_of_constrained_time",
           constrained["mask_seconds"].get<double>() / constrained["seconds"].get<double>()}};
}

}  // namespace falcon::bench
