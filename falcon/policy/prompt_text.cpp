#include "falcon/policy/prompt_text.h"

namespace falcon::policy {

std::string prompt_text(const problems::Problem& problem, const problems::Instance& instance) {
  return problem.prompt(instance) + "\n";
}

}  // namespace falcon::policy
