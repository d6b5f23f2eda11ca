#pragma once
// Instances <-> the named numeric fields a dataset stores (docs/dataset_format.md). Each problem
// declares, encodes and decodes its own fields (Problem::instance_fields, encode_instance,
// decode_instance; problems/instance_fields.h); reading a record goes through decode_instance
// below, which also checks the record's size.
#include <memory>
#include <string>

#include "falcon/problems/problem.h"

namespace falcon::data {

using problems::FieldKind;
using problems::FieldSpec;
using problems::InstanceData;

// Rebuilds the instance (named `name`, of size n) and validates it as the problem's readers do.
// Throws falcon::Error prefixed with `where` when the fields are inconsistent.
std::shared_ptr<problems::Instance> decode_instance(const problems::Problem& problem, const InstanceData& data, int n,
                                                    const std::string& name, const std::string& where);

}  // namespace falcon::data
