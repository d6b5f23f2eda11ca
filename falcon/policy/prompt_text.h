#pragma once
// What the model reads before its answer: Problem::prompt(instance) + "\n". Every sequence is
//
//   [BOS] prompt_text(instance) [solution tokens] [EOS]
//
// in training and in sampling alike (no BOS where the tokenizer has none, as Qwen's); the newline
// keeps a BPE merge from spanning prompt and solution, so the solution starts at a token boundary
// the grammar can constrain from its first state. A tokenizer with a chat template
// (Tokenizer::with_chat_template) wraps the prompt in its instruct format instead, whose
// assistant header ends the same way, and ends the solution with the turn's end token.
#include <string>
#include <vector>

#include "falcon/problems/problem.h"
#include "falcon/text/tokenizer.h"

namespace falcon::policy {

std::string prompt_text(const problems::Problem& problem, const problems::Instance& instance);
// [BOS] + the prompt in the tokenizer's chat template (none: prompt_text), as token ids.
std::vector<int> prompt_tokens(const problems::Problem& problem, const problems::Instance& instance,
                               const text::Tokenizer& tokenizer);

}  // namespace falcon::policy
