#include "falcon/problems/problem.h"

#include <cmath>
#include <utility>

#include "falcon/core/error.h"
#include "falcon/problems/list_ops.h"

namespace falcon::problems {

double gap(Sense sense, double f, double f_star) {
  const double denom = std::fabs(f_star);
  if (denom == 0.0) return f == f_star ? 0.0 : INFINITY;
  return sense == Sense::kMinimize ? (f - f_star) / denom : (f_star - f) / denom;
}

Solution original_solution(const SymmetricCopy& copy, const Solution& in_copy) {
  std::vector<int> back(copy.relabel.size());
  for (std::size_t i = 0; i < copy.relabel.size(); ++i) back[copy.relabel[i]] = static_cast<int>(i);
  Solution out = relabelled(in_copy, back);
  if (!copy.list_relabel.empty() && out.lists.size() == copy.list_relabel.size()) {
    Solution by_list = out;
    for (std::size_t k = 0; k < copy.list_relabel.size(); ++k) by_list.lists[k] = out.lists[copy.list_relabel[k]];
    out = std::move(by_list);
  }
  return out;
}

Problem::Problem(std::string_view name, Sense sense, double locality_constant, TextShape shape,
                 const TextNotation* notation)
    : name_(name), sense_(sense), locality_constant_(locality_constant), shape_(std::move(shape)), notation_(notation) {}

TextFormat Problem::text_format() const {
  return {shape_.keyword, shape_.nested, shape_.index_base, shape_.index_prefix, shape_.echo};
}

GrammarSpec Problem::grammar(const Instance& instance) const {
  return {shape_.keyword, shape_.nested, shape_.allow_empty, shape_.first_index,
          instance.size() - 1 + shape_.index_base, shape_.index_prefix};
}

std::string Problem::format(const Instance& instance, const Solution& given) const {
  const Solution items = text_order(instance, given);
  const double value = objective(instance, given);  // the items may be anchors, not the solution
  const TextFormat fmt = text_format();
  if (!fmt.echo) return format_solution(fmt, items, value);
  const EchoNotes notes = echo_notes(instance, items);
  return format_solution(fmt, items, value, &notes);
}

Solution Problem::text_order(const Instance& instance, const Solution& solution) const {
  return notation_ != nullptr ? notation_->items(*this, instance, solution) : solution;
}

EchoNotes Problem::echo_notes(const Instance& instance, const Solution& items) const {
  if (notation_ == nullptr)
    throw Error("the paper's text of " + name_ + " writes no notes; use text.style: compact_echo");
  return notation_->notes(*this, instance, items);
}

Solution Problem::solution_of_text(const Instance& instance, const Solution& items) const {
  return notation_ != nullptr ? notation_->solution(*this, instance, items) : items;
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
