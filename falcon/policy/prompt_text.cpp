#include "falcon/policy/prompt_text.h"

#include "falcon/text/chat_template.h"

namespace falcon::policy {

std::string prompt_text(const problems::Problem& problem, const problems::Instance& instance) {
  return problem.prompt(instance) + "\n";
}

std::vector<int> prompt_tokens(const problems::Problem& problem, const problems::Instance& instance,
                               const text::Tokenizer& tokenizer) {
  const text::ChatTemplate& chat = tokenizer.chat_template();
  std::vector<int> tokens;
  if (chat.bos && tokenizer.bos_id() >= 0) tokens.push_back(tokenizer.bos_id());
  const auto body = tokenizer.encode(chat.before + problem.prompt(instance) + chat.after);
  tokens.insert(tokens.end(), body.begin(), body.end());
  return tokens;
}

}  // namespace falcon::policy
