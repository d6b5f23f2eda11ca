#pragma once
// The dataset's records and the constants of its HDF5 layout (docs/dataset_format.md is the
// reference for the file; this is the in-memory side of it).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "falcon/data/instance_codec.h"
#include "falcon/problems/solution.h"

namespace falcon::data {

inline constexpr const char* kMagic = "FALCON-DATASET";
// Bump on any change a reader of the previous version would misread; readers reject others.
inline constexpr std::int64_t kSchemaVersion = 1;

// A generator setting: the `distribution` and problem keys passed to Problem::generate.
struct DistributionSpec {
  std::string name;                           // "" = the problem's default
  std::map<std::string, std::string> params;  // shared params merged with this entry's own
  bool operator==(const DistributionSpec& o) const { return name == o.name && params == o.params; }
};

// A range of sizes n (inclusive); a fixed size has min_n == max_n.
struct BucketSpec {
  std::string name;
  int min_n = 0;
  int max_n = 0;
  bool operator==(const BucketSpec& o) const { return name == o.name && min_n == o.min_n && max_n == o.max_n; }
};

// Per split: how its instances were drawn. Records refer to these tables by position.
struct SplitInfo {
  std::string name;            // train, val, test, ... (an HDF5 group name)
  std::int64_t count = 0;      // instances the config asks for (records may still be missing)
  std::vector<DistributionSpec> distributions;
  std::vector<BucketSpec> buckets;
};

// The reference solution of one instance and how it was obtained.
struct Label {
  problems::Solution solution;
  double objective = 0;
  std::string solver;             // method name, e.g. "reference"
  std::uint64_t solver_seed = 0;
  double seconds = 0;             // wall-clock time of the solver (not reproducible)
};

struct Record {
  std::int64_t index = 0;   // k: the instance's position in its split
  std::uint64_t seed = 0;   // generator seed (derived from the dataset seed, split and k)
  int n = 0;
  int distribution = 0;     // into SplitInfo::distributions
  int bucket = 0;           // into SplitInfo::buckets
  std::string name;
  InstanceData instance;
  Label label;
};

}  // namespace falcon::data
