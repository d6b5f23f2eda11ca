#include "falcon/policy/prompt_text.h"

namespace falcon::policy {

std::string prompt_text(const problems::Problem& problem, const problems::Instance& instance) {
  return problem.prompt(instance) + "\n";
}

std::vector<int> prompt_tokens(const problems::Problem& problem, const problems::Instance& instance,
                               const text::Tokenizer& tokenizer) {
  std::vector<int> tokens;
  if (tokenizer.bos_id() >= 0) tokens.push_back(tokenizer.bos_id());
  const auto body = tokenizer.encode(prompt_text(problem, instance));
  tokens.insert(tokens.end(), body.begin(), body.end());
  return tokens;
}

}  // namespace falcon::policy
