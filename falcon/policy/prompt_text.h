#pragma once
// What the model reads before its answer: Problem::prompt(instance) + "\n". Every sequence is
//
//   [BOS] prompt_text(instance) [solution tokens] [EOS]
//
// in training and in sampling alike (no BOS where the tokenizer has none, as Qwen's); the newline
// keeps a BPE merge from spanning prompt and solution, so the solution starts at a token boundary
// the grammar can constrain from its first state.
#include <string>
#include <vector>

#include "falcon/problems/problem.h"
#include "falcon/text/tokenizer.h"

namespace falcon::policy {

std::string prompt_text(const problems::Problem& problem, const problems::Instance& instance);
// [BOS] + the tokens of prompt_text.
std::vector<int> prompt_tokens(const problems::Problem& problem, const problems::Instance& instance,
                               const text::Tokenizer& tokenizer);

}  // namespace falcon::policy
