#pragma once
// Instances <-> named numeric fields, the form the HDF5 file stores (docs/dataset_format.md).
// The fields hold exactly what the problem's structs hold, so decode(encode(x)) rebuilds x
// bit for bit: the same prompt, distances and objective values. Routing distances are not stored:
// generated instances are Euclidean and RoutingGeometry::euclidean recomputes them identically
// from the stored coordinates (encode refuses instances whose matrix is anything else).
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "falcon/problems/problem.h"

namespace falcon::data {

struct InstanceData {
  std::map<std::string, std::int64_t> ints;                      // one value per instance
  std::map<std::string, double> reals;
  std::map<std::string, std::vector<std::int32_t>> int_arrays;   // variable length per instance
  std::map<std::string, std::vector<double>> real_arrays;

  bool operator==(const InstanceData& other) const {
    return ints == other.ints && reals == other.reals && int_arrays == other.int_arrays && real_arrays == other.real_arrays;
  }
};

enum class FieldKind { kInt, kReal, kIntArray, kRealArray };

struct FieldSpec {
  std::string name;
  FieldKind kind;
  std::string doc;  // what the values are, for docs and error messages
};

// The fields every instance of `problem` has, in a fixed order. Throws for an unknown problem.
const std::vector<FieldSpec>& instance_fields(const std::string& problem);

InstanceData encode_instance(const problems::Problem& problem, const problems::Instance& instance);
// Rebuilds the instance (named `name`, of size n) and validates it as the problem's readers do.
// Throws falcon::Error prefixed with `where` when the fields are inconsistent.
std::shared_ptr<problems::Instance> decode_instance(const problems::Problem& problem, const InstanceData& data, int n,
                                                    const std::string& name, const std::string& where);

}  // namespace falcon::data
