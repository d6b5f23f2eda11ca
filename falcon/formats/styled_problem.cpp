#include "falcon/formats/styled_problem.h"

#include <utility>

#include "falcon/core/error.h"

namespace falcon::formats {

using problems::Instance;
using problems::Solution;

StyledProblem::StyledProblem(const problems::Problem& base, const Format& format, int candidates)
    : Problem(base.name(), base.sense(), base.locality_constant(), format.shape(base), &format),
      base_(base),
      format_(format),
      candidates_(candidates) {}

std::string StyledProblem::prompt(const Instance& instance) const {
  return format_.prompt(base_, instance, candidates_);
}

std::unique_ptr<problems::SemanticConstraint> StyledProblem::semantic_constraint(
    std::shared_ptr<const Instance> instance) const {
  if (format_.writes_notes())
    throw Error("semantic mask: not available with text style '" + std::string(format_.name()) +
                "' (it would read the notes' digits as indices); turn the semantic mask off");
  return base_.semantic_constraint(std::move(instance));
}

std::shared_ptr<Instance> StyledProblem::generate(const problems::GenerateOptions& options, std::uint64_t seed) const {
  return base_.generate(options, seed);
}
std::shared_ptr<Instance> StyledProblem::read_file(const std::string& path) const { return base_.read_file(path); }
problems::SymmetricCopy StyledProblem::symmetric_copy(const Instance& instance, const Solution& solution,
                                                      Rng& rng) const {
  return base_.symmetric_copy(instance, solution, rng);
}
double StyledProblem::objective(const Instance& instance, const Solution& solution) const {
  return base_.objective(instance, solution);
}
bool StyledProblem::feasible(const Instance& instance, const Solution& solution) const {
  return base_.feasible(instance, solution);
}
double StyledProblem::violation(const Instance& instance, const Solution& solution) const {
  return base_.violation(instance, solution);
}
Solution StyledProblem::repair(const Instance& instance, const Solution& solution) const {
  return base_.repair(instance, solution);
}
double StyledProblem::repair_distance(const Instance& instance, const Solution& repaired,
                                      const Solution& original) const {
  return base_.repair_distance(instance, repaired, original);
}
const std::vector<problems::FieldSpec>& StyledProblem::instance_fields() const { return base_.instance_fields(); }
problems::InstanceData StyledProblem::encode_instance(const Instance& instance) const {
  return base_.encode_instance(instance);
}
std::shared_ptr<Instance> StyledProblem::decode_instance(const problems::InstanceData& data, int n,
                                                         const std::string& name, const std::string& where) const {
  return base_.decode_instance(data, n, name, where);
}
problems::Picture StyledProblem::picture(const Instance& instance, const Solution& solution,
                                         const Solution* raw) const {
  return base_.picture(instance, solution, raw);
}

}  // namespace falcon::formats
