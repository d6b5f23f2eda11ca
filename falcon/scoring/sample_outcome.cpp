#include "falcon/scoring/sample_outcome.h"

#include <chrono>

namespace falcon::scoring {

SampleOutcome score_sample(const problems::Problem& problem, const problems::Instance& instance,
                           std::string_view text, bool repair) {
  SampleOutcome out;
  auto strict = problem.parse(instance, text, /*lenient=*/false);
  if (strict.solution) {
    out.parsed_strict = out.parsed = true;
    out.solution = std::move(*strict.solution);
  } else if (auto lenient = problem.parse(instance, text, /*lenient=*/true); lenient.solution) {
    out.parsed = true;
    out.solution = std::move(*lenient.solution);
  }
  const bool constraints_hold = problem.feasible(instance, out.solution);
  out.feasible_raw = out.parsed_strict && constraints_hold;
  out.violation = problem.violation(instance, out.solution);
  if (repair) {
    if (!constraints_hold) {
      const auto start = std::chrono::steady_clock::now();
      auto fixed = problem.repair(instance, out.solution);
      out.repair_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      out.repair_distance = problem.repair_distance(instance, fixed, out.solution);
      out.repaired = true;
      out.before_repair = std::move(out.solution);
      out.solution = std::move(fixed);
    }
    out.feasible = true;
  } else {
    out.feasible = out.feasible_raw;
  }
  out.objective = problem.objective(instance, out.solution);
  return out;
}

bool better(const problems::Problem& problem, const SampleOutcome& a, const SampleOutcome& b) {
  if (a.feasible != b.feasible) return a.feasible;
  if (!a.feasible) return false;
  return problem.sense() == problems::Sense::kMinimize ? a.objective < b.objective : a.objective > b.objective;
}

}  // namespace falcon::scoring
