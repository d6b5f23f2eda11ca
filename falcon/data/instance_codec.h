#pragma once
// Instances <-> the named numeric fields a dataset stores (docs/dataset_format.md). Each problem
// declares and encodes its own fields (Problem::instance_fields, problems/instance_fields.h);
// these are the dataset layer's entry points to them.
#include <memory>
#include <string>

#include "falcon/problems/problem.h"

namespace falcon::data {

using problems::FieldKind;
using problems::FieldSpec;
using problems::InstanceData;

InstanceData encode_instance(const problems::Problem& problem, const problems::Instance& instance);
// Rebuilds the instance (named `name`, of size n) and validates it as the problem's readers do.
// Throws falcon::Error prefixed with `where` when the fields are inconsistent.
std::shared_ptr<problems::Instance> decode_instance(const problems::Problem& problem, const InstanceData& data, int n,
                                                    const std::string& name, const std::string& where);

}  // namespace falcon::data
