#include <gtest/gtest.h>

#include "falcon/decoding/grammar_state.h"
#include "falcon/problems/registry.h"
#include "falcon/sampling/generate.h"
#include "falcon/sampling/grammar_mask_step.h"

namespace falcon::sampling {
namespace {

// A random tiny model decoding through the real grammar (and semantic) mask on a byte-level
// vocabulary: every sample that ends with EOS is a sentence of the grammar, and with the
// semantic mask a feasible tour, before any repair.
TEST(GrammarGenerate, RandomModelOutputsParseAndSemanticMaskGivesFeasibleTours) {
  const auto vocabulary = decoding::Vocabulary::byte_level();  // ids 0..255 bytes, 256 = EOS
  model::ModelConfig c;
  c.vocab_size = vocabulary.size();
  c.hidden_size = 32;
  c.intermediate_size = 48;
  c.num_hidden_layers = 1;
  c.num_attention_heads = 2;
  c.num_key_value_heads = 1;
  c.max_position_embeddings = 512;
  torch::manual_seed(21);
  model::CausalLm lm(c);
  const auto& tsp = problems::problem_by_name("tsp");
  for (const bool semantic : {false, true}) {
    std::vector<std::shared_ptr<const problems::Instance>> instances;
    std::vector<decoding::GrammarState> states;
    std::vector<std::vector<int>> prompts;
    for (int p = 0; p < 3; ++p) {
      instances.push_back(tsp.generate({/*n=*/6 + p}, 40 + p));
      decoding::GrammarOptions options;
      options.semantic = semantic;
      states.push_back(decoding::make_grammar_state(tsp, instances.back(), vocabulary, options));
      prompts.push_back({'T', 'S', 'P', '0' + p, '\n'});
    }
    SamplerChain chain;
    chain.push_back(std::make_unique<GrammarMaskStep>(states));
    auto* step = static_cast<GrammarMaskStep*>(chain.front().get());
    GenerateOptions options;
    options.samples_per_prompt = 8;
    options.max_new_tokens = 300;
    options.eos_id = vocabulary.eos_id();
    options.pad_id = vocabulary.eos_id();
    auto out = generate(lm, prompts, chain, options);
    int ended = 0;
    for (const auto& seq : out) {
      EXPECT_NE(seq.stop, StopReason::kDeadEnd);
      if (seq.stop != StopReason::kEos) continue;
      ++ended;
      std::string text;
      for (int t : seq.tokens) text += vocabulary.bytes(t);
      auto parsed = tsp.parse(text);
      ASSERT_TRUE(parsed.solution.has_value()) << text;
      if (semantic) EXPECT_TRUE(tsp.feasible(*instances[seq.prompt], *parsed.solution)) << text;
    }
    EXPECT_EQ(step->rejected(), 0);
    EXPECT_GT(ended, 12) << "semantic " << semantic;  // most rows finish within 300 bytes
  }
}

}  // namespace
}  // namespace falcon::sampling
