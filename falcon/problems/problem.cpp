#include "falcon/problems/problem.h"

#include <cmath>

#include "falcon/core/error.h"

namespace falcon::problems {

double gap(Sense sense, double f, double f_star) {
  const double denom = std::fabs(f_star);
  if (denom == 0.0) return f == f_star ? 0.0 : INFINITY;
  return sense == Sense::kMinimize ? (f - f_star) / denom : (f_star - f) / denom;
}

std::string Problem::format(const Instance& instance, const Solution& given) const {
  const Solution items = text_order(instance, given);
  const double value = objective(instance, given);  // the items may be anchors, not the solution
  const TextFormat fmt = text_format();
  if (!fmt.echo) return format_solution(fmt, items, value);
  const EchoNotes notes = echo_notes(instance, items);
  return format_solution(fmt, items, value, &notes);
}

Solution Problem::insertion_anchors(const Instance& instance, const Solution& solution) const {
  insertion_notes(instance, solution);  // the one error for all three
  return solution;
}

Solution Problem::from_insertions(const Instance& instance, const Solution& anchors) const {
  insertion_notes(instance, anchors);
  return anchors;
}

EchoNotes Problem::insertion_notes(const Instance&, const Solution&) const {
  throw Error("text style 'compact_insert' is not written for " + std::string(name()) +
              " yet (override Problem::insertion_notes, insertion_anchors and from_insertions); use text.style: compact_ranked");
}

EchoNotes Problem::ranked_notes(const Instance&, const Solution&) const {
  throw Error("text style 'compact_ranked' is not written for " + std::string(name()) +
              " yet (override Problem::ranked_notes and ranked_order); use text.style: compact_state");
}

Solution Problem::ranked_order(const Instance& instance, const Solution& solution) const {
  ranked_notes(instance, solution);  // the one error for both
  return solution;
}

EchoNotes Problem::echo_notes(const Instance&, const Solution&) const {
  throw Error("text styles 'compact_echo' and 'compact_state' are not written for " + std::string(name()) +
              " yet (override Problem::echo_notes); use text.style: compact");
}

std::string Problem::compact_prompt(const Instance&, int) const {
  throw Error("text style 'compact' is not written for " + std::string(name()) +
              " yet (override Problem::compact_prompt); use text.style: paper");
}

SymmetricCopy Problem::symmetric_copy(const Instance&, const Solution&, Rng&) const {
  throw Error("data.augment: no symmetries are written for " + std::string(name()) +
              " yet (they exist for tsp); set data.augment: false");
}

std::unique_ptr<SemanticConstraint> Problem::semantic_constraint(std::shared_ptr<const Instance>) const {
  throw Error("semantic mask: no constraints for problem '" + std::string(name()) + "'; turn the semantic mask off for it");
}

Picture Problem::picture(const Instance&, const Solution&, const Solution*) const {
  throw Error("no picture for problem '" + std::string(name()) + "'");
}

ParseResult Problem::parse(std::string_view text, bool lenient) const {
  return lenient ? parse_solution_lenient(text_format(), text) : parse_solution_strict(text_format(), text);
}

ParseResult Problem::parse(const Instance& instance, std::string_view text, bool lenient) const {
  ParseResult result = parse(text, lenient);
  if (result.solution) result.solution = solution_of_text(instance, *result.solution);
  return result;
}

}  // namespace falcon::problems
