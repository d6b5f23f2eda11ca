#pragma once
// When two samples "match" (the y_i = y_j of Definition 3.5 and the n_{y*} of Algorithm 2):
//   solution:  they deliver the same solution: equal lists after repair (the same solution
//              text up to the objective field). The default: a literal reading of y_i = y_j
//              for what the pipeline delivers. A tour and its rotation are different texts and
//              do not match.
//   objective: their delivered objectives are equal (relative tolerance 1e-9). Coarser: two
//              different tours of the same length match.
// Infeasible samples (possible only with repair off) match by the same rule.
#include <string>
#include <vector>

#include "falcon/scoring/sample_outcome.h"

namespace falcon::scoring {

enum class Match { kSolution, kObjective };
Match match_from_string(const std::string& name, const std::string& where);  // throws naming `where`
std::string to_string(Match match);

// Assigns each sample a class id (0, 1, ...) in order of first appearance.
class MatchClasses {
 public:
  explicit MatchClasses(Match match) : match_(match) {}
  int add(const SampleOutcome& outcome);

 private:
  Match match_;
  std::vector<problems::Solution> solutions_;  // representative of each class (kSolution)
  std::vector<double> objectives_;             // representative of each class (kObjective)
};

}  // namespace falcon::scoring
