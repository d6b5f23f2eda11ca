#include "falcon/scoring/matching.h"

#include <algorithm>
#include <cmath>

#include "falcon/core/error.h"

namespace falcon::scoring {

Match match_from_string(const std::string& name, const std::string& where) {
  if (name == "solution") return Match::kSolution;
  if (name == "objective") return Match::kObjective;
  throw Error(where + ": unknown match '" + name + "' (use solution or objective)");
}

std::string to_string(Match match) { return match == Match::kSolution ? "solution" : "objective"; }

int MatchClasses::add(const SampleOutcome& outcome) {
  if (match_ == Match::kSolution) {
    for (std::size_t c = 0; c < solutions_.size(); ++c)
      if (solutions_[c] == outcome.solution) return static_cast<int>(c);
    solutions_.push_back(outcome.solution);
    return static_cast<int>(solutions_.size()) - 1;
  }
  for (std::size_t c = 0; c < objectives_.size(); ++c)
    if (std::abs(objectives_[c] - outcome.objective) <= 1e-9 * std::max(1.0, std::abs(objectives_[c])))
      return static_cast<int>(c);
  objectives_.push_back(outcome.objective);
  return static_cast<int>(objectives_.size()) - 1;
}

}  // namespace falcon::scoring
