#pragma once
// A problem written in a text style: the same name, instances, objective, feasibility and repair
// as the problem it writes, so that scores and repairs cannot diverge by style; its prompt, text
// and grammar are the format's.
#include <memory>
#include <string>

#include "falcon/formats/format.h"

namespace falcon::formats {

class StyledProblem final : public problems::Problem {
 public:
  StyledProblem(const problems::Problem& base, const Format& format, int candidates);

  std::string prompt(const problems::Instance& instance) const override;
  // The semantic mask reads every digit run as an index; a note's numbers are not: refused with notes.
  std::unique_ptr<problems::SemanticConstraint> semantic_constraint(
      std::shared_ptr<const problems::Instance> instance) const override;

  std::shared_ptr<problems::Instance> generate(const problems::GenerateOptions& options,
                                               std::uint64_t seed) const override;
  std::shared_ptr<problems::Instance> read_file(const std::string& path) const override;
  problems::SymmetricCopy symmetric_copy(const problems::Instance& instance, const problems::Solution& solution,
                                         Rng& rng) const override;
  double objective(const problems::Instance& instance, const problems::Solution& solution) const override;
  bool feasible(const problems::Instance& instance, const problems::Solution& solution) const override;
  double violation(const problems::Instance& instance, const problems::Solution& solution) const override;
  problems::Solution repair(const problems::Instance& instance, const problems::Solution& solution) const override;
  double repair_distance(const problems::Instance& instance, const problems::Solution& repaired,
                         const problems::Solution& original) const override;
  const std::vector<problems::FieldSpec>& instance_fields() const override;
  problems::InstanceData encode_instance(const problems::Instance& instance) const override;
  std::shared_ptr<problems::Instance> decode_instance(const problems::InstanceData& data, int n,
                                                      const std::string& name, const std::string& where) const override;
  problems::Picture picture(const problems::Instance& instance, const problems::Solution& solution,
                            const problems::Solution* raw) const override;

 private:
  const problems::Problem& base_;
  const Format& format_;
  int candidates_;
};

}  // namespace falcon::formats
