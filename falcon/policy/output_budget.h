#pragma once
// How many tokens the model may write for an instance, sized from the instance alone (never from
// a label, so an evaluation reads nothing of the answer): the tokens of the problem's simple
// heuristic's solution in the model's text, + EOS, doubled for room to go astray, + 16.
#include "falcon/problems/problem.h"
#include "falcon/text/tokenizer.h"

namespace falcon::policy {

struct OutputBudget {
  int solution_tokens = 0;  // the heuristic's solution text + EOS: what a whole answer needs
  int max_new_tokens = 0;   // 2 x solution_tokens + 16
};

// `problem` writes the model's text style. The heuristic is the problem's first non-reference
// solver (falcon_solve --list); a problem without one sizes by repair of an empty answer.
OutputBudget output_budget(const problems::Problem& problem, const problems::Instance& instance,
                           const text::Tokenizer& tokenizer);

}  // namespace falcon::policy
