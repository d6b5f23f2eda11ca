#pragma once
// What one model output is worth: parse it (strictly, else leniently), check it, repair it when
// asked, score it. Shared by the trainer's rollouts and the evaluator, so "feasible" means the
// same thing in both:
//   feasible_raw: the text is a sentence of the grammar AND the solution satisfies every
//                 constraint, with no help;
//   feasible:     what the pipeline delivers — with repair always true (lenient salvage, then
//                 Appendix E's operator); without repair, equal to feasible_raw.
#include <optional>
#include <string_view>

#include "falcon/problems/problem.h"

namespace falcon::scoring {

struct SampleOutcome {
  bool parsed_strict = false;   // the whole text matched the grammar
  bool parsed = false;          // strict, or the lenient parser salvaged a solution
  bool feasible_raw = false;
  double violation = 0.0;       // v(x) of what was parsed (of the empty solution when nothing was)
  bool repaired = false;        // repair changed the solution
  double repair_distance = 0.0; // d(R(x), x)
  double repair_seconds = 0.0;  // wall time of the repair operator (0 when it did not run)
  bool feasible = false;
  double objective = 0.0;       // of the delivered solution; meaningful when feasible
  problems::Solution solution;  // the delivered solution (repaired when repair ran)
  // What was parsed, when repair changed it (the model's own solution): pictures mark the change.
  std::optional<problems::Solution> before_repair;
};

SampleOutcome score_sample(const problems::Problem& problem, const problems::Instance& instance,
                           std::string_view text, bool repair);

// True when a is strictly better than b (feasible beats infeasible; then the objective).
bool better(const problems::Problem& problem, const SampleOutcome& a, const SampleOutcome& b);

}  // namespace falcon::scoring
