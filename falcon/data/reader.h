#pragma once
// Reads a dataset file (docs/dataset_format.md) and rebuilds its instances and labels.
//
// open() checks the magic, the schema version, the problem and the whole structure (every column
// present, lengths and offsets consistent, codes in range) and throws ONE falcon::Error that names
// the file and what is wrong: not HDF5, truncated, not a FALCON dataset, another schema version,
// another problem, a missing or inconsistent column. Raw data is checksummed (Fletcher-32 per
// chunk), so corruption inside a column is an error when that part is read, never wrong values.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "falcon/data/schema.h"
#include "falcon/problems/problem.h"

namespace falcon::data {

struct LabeledInstance {
  Record record;
  std::shared_ptr<problems::Instance> instance;  // rebuilt exactly from the record
};

class DatasetReader {
 public:
  // `expected_problem` empty: any problem. The file is read once in a child process first
  // (probe_in_child): a file that crashes the HDF5 library there, or whose read runs past
  // `probe_limit_s` (by default 10 s + 1 s per MB), is a falcon::Error here.
  static DatasetReader open(const std::string& path, std::string_view expected_problem = "",
                            std::optional<double> probe_limit_s = std::nullopt);
  // The two halves of open(), for a caller that runs the probe itself (the dataset fuzzer, through
  // a ProbeServer): the work open() runs in the child, and open() without that child.
  static void read_every_record(const std::string& path);
  static DatasetReader open_unprobed(const std::string& path, std::string_view expected_problem = "");

  const std::string& path() const;
  const problems::Problem& problem() const;
  const std::string& config_yaml() const;  // the resolved config that made the file
  bool complete() const;                   // every split holds all `count` instances
  const std::vector<std::string>& split_names() const;  // in the config's order
  bool has_split(const std::string& split) const;
  const SplitInfo& split_info(const std::string& split) const;
  std::int64_t size(const std::string& split) const;    // records present
  const std::vector<std::string>& solvers(const std::string& split) const;
  const std::vector<std::int64_t>& indices(const std::string& split) const;  // ascending

  // Records [begin, end) by position in the split (not by index k, see indices()).
  std::vector<Record> read(const std::string& split, std::int64_t begin, std::int64_t end) const;
  Record read(const std::string& split, std::int64_t position) const;
  LabeledInstance load(const std::string& split, std::int64_t position) const;

  // Reads every record, rebuilds every instance and checks that each label is feasible and has
  // the stored objective. Throws falcon::Error naming the first bad record.
  void verify() const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

}  // namespace falcon::data
