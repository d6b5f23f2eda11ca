#pragma once
// Instances <-> named numeric fields, the form a dataset stores (falcon/data writes them to HDF5;
// docs/dataset_format.md). Each problem declares its fields and encodes / decodes its own
// instances (Problem::instance_fields, encode_instance, decode_instance); the fields hold exactly
// what the problem's structs hold, so decode(encode(x)) rebuilds x bit for bit. The helpers below
// are for those implementations: every error names the record (`where`) and the field.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "falcon/core/error.h"
#include "falcon/problems/routing_geometry.h"

namespace falcon::problems {

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

// The field `name` of one kind's map, or an error naming it.
template <class T>
const T& required_field(const std::map<std::string, T>& fields, const std::string& name, const std::string& where) {
  auto it = fields.find(name);
  if (it == fields.end()) throw Error(where + ": the instance field '" + name + "' is missing");
  return it->second;
}

void expect_length(std::size_t actual, std::size_t expected, const std::string& name, const std::string& where);
// An int field that must fit in 32 bits.
int int_field(const InstanceData& data, const std::string& name, const std::string& where);

// Routing instances store their coordinates ("coords": 2n values) and rebuild Euclidean
// distances from them; encode refuses an instance whose matrix is anything else (a TSPLIB file's
// rounded or explicit weights), since the stored fields could not give it back.
extern const FieldSpec kCoordsField;
std::vector<double> encode_coords(const RoutingGeometry& geometry, const std::string& what);
RoutingGeometry decode_coords(const InstanceData& data, int n, const std::string& where);

// Runs a problem's validation and rethrows its errors with the record's place in front.
template <class F>
void validated(const std::string& where, F&& validate) {
  try {
    validate();
  } catch (const Error& e) {
    throw Error(where + ": " + e.what());
  }
}

}  // namespace falcon::problems
