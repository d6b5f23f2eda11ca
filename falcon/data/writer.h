#pragma once
// Writes a dataset file (docs/dataset_format.md) crash-safely: everything goes to PATH.tmp, and
// commit() closes it, fsyncs it and renames it over PATH. A reader therefore only ever sees a
// complete file: the previous one, or the new one.
#include <memory>
#include <string>
#include <vector>

#include "falcon/data/schema.h"
#include "falcon/problems/problem.h"

namespace falcon::data {

class DatasetWriter {
 public:
  // `config_yaml` is stored as the file's `config` attribute (the resolved config that made it).
  DatasetWriter(std::string path, const problems::Problem& problem, std::string config_yaml);
  ~DatasetWriter();  // removes PATH.tmp unless commit() succeeded
  DatasetWriter(const DatasetWriter&) = delete;
  DatasetWriter& operator=(const DatasetWriter&) = delete;

  // Splits are written one after the other: begin, append records in ascending index, end.
  void begin_split(const SplitInfo& info);
  void append(const std::vector<Record>& records);
  void end_split();

  // `complete`: every split holds all `count` instances. Throws falcon::Error naming the path.
  void commit(bool complete);

 private:
  struct SplitState;

  std::string path_;
  std::string tmp_path_;
  const problems::Problem& problem_;
  std::string config_yaml_;
  std::vector<std::string> split_names_;
  std::unique_ptr<SplitState> split_;
  struct FileState;
  std::unique_ptr<FileState> file_;
  bool committed_ = false;
};

// Where the writer puts the file before renaming it over `path`.
std::string temp_path_for(const std::string& path);

}  // namespace falcon::data
