#include "falcon/data/writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "falcon/core/error.h"
#include "falcon/data/h5_io.h"
#include "falcon/data/layout.h"

namespace falcon::data {
namespace {

// fsync of a file or directory by path; rename is only durable once the directory is synced.
void sync_path(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) throw Error(path + ": cannot open to sync it to disk");
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0 && !directory) throw Error(path + ": fsync failed (disk full or read-only?)");
}

// The concatenated values of one array field over `records`, with the running end offsets.
template <class T>
std::vector<T> flatten(const std::vector<Record>& records, std::map<std::string, std::vector<T>> InstanceData::*arrays,
                       const std::string& field, const std::string& missing, std::int64_t& end, std::vector<std::int64_t>& ends) {
  std::vector<T> flat;
  for (const Record& r : records) {
    const auto& fields = r.instance.*arrays;
    auto found = fields.find(field);
    if (found == fields.end()) throw Error(missing);
    flat.insert(flat.end(), found->second.begin(), found->second.end());
    end += static_cast<std::int64_t>(found->second.size());
    ends.push_back(end);
  }
  return flat;
}

// One scalar field's value in every record.
template <class T>
std::vector<T> gather(const std::vector<Record>& records, std::map<std::string, T> InstanceData::*scalars,
                      const std::string& field, const std::string& missing) {
  std::vector<T> values;
  for (const Record& r : records) {
    const auto& fields = r.instance.*scalars;
    auto found = fields.find(field);
    if (found == fields.end()) throw Error(missing);
    values.push_back(found->second);
  }
  return values;
}

}  // namespace

std::string temp_path_for(const std::string& path) { return path + ".tmp"; }

struct DatasetWriter::FileState {
  H5::H5File file;
};

struct DatasetWriter::SplitState {
  SplitInfo info;
  H5::Group group;
  std::map<std::string, h5::Column> columns;
  std::vector<std::string> solvers;  // codes of the `solver` column
  std::int64_t last_index = -1;
  std::int64_t records = 0;
  std::int64_t name_end = 0, item_end = 0, lists_end = 0;  // running ends of the flat columns
  std::map<std::string, std::int64_t> field_end;

  h5::Column& col(const std::string& name) { return columns.at(name); }
};

DatasetWriter::DatasetWriter(std::string path, const problems::Problem& problem, std::string config_yaml)
    : path_(std::move(path)), tmp_path_(temp_path_for(path_)), problem_(problem), config_yaml_(std::move(config_yaml)) {
  file_ = std::make_unique<FileState>();
  h5::guard(tmp_path_ + ": cannot create the dataset file", [&] {
    H5::FileAccPropList access;
    access.setLibverBounds(H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);  // checksummed metadata
    file_->file = H5::H5File(tmp_path_, H5F_ACC_TRUNC, H5::FileCreatPropList::DEFAULT, access);
  });
}

DatasetWriter::~DatasetWriter() {
  if (committed_) return;
  try {
    split_.reset();
    if (file_) file_->file.close();
  } catch (...) {
  }
  std::error_code ec;
  std::filesystem::remove(tmp_path_, ec);
}

void DatasetWriter::begin_split(const SplitInfo& info) {
  if (split_) throw Error("DatasetWriter: begin_split('" + info.name + "') before end_split()");
  split_ = std::make_unique<SplitState>();
  SplitState& s = *split_;
  s.info = info;
  h5::guard(tmp_path_ + ": cannot create split '" + info.name + "'", [&] {
    s.group = file_->file.createGroup(info.name);
    H5::Group solution = s.group.createGroup(layout::kSolutionGroup);
    H5::Group instance = s.group.createGroup(layout::kInstanceGroup);
    auto add = [&](H5::Group& g, const std::string& key, const std::string& name, auto tag, hsize_t chunk) {
      using T = decltype(tag);
      s.columns.emplace(key, h5::Column::create<T>(g, name, chunk));
    };
    add(s.group, "index", "index", std::int64_t{}, layout::kRecordChunk);
    add(s.group, "seed", "seed", std::uint64_t{}, layout::kRecordChunk);
    add(s.group, "n", "n", std::int32_t{}, layout::kRecordChunk);
    add(s.group, "distribution", "distribution", std::int32_t{}, layout::kRecordChunk);
    add(s.group, "bucket", "bucket", std::int32_t{}, layout::kRecordChunk);
    add(s.group, "objective", "objective", double{}, layout::kRecordChunk);
    add(s.group, "solver", "solver", std::int32_t{}, layout::kRecordChunk);
    add(s.group, "solver_seed", "solver_seed", std::uint64_t{}, layout::kRecordChunk);
    add(s.group, "solve_seconds", "solve_seconds", double{}, layout::kRecordChunk);
    add(s.group, "name", "name", std::uint8_t{}, layout::kFlatChunk);
    add(s.group, "name_offsets", "name_offsets", std::int64_t{}, layout::kRecordChunk);
    add(solution, "solution/items", "items", std::int32_t{}, layout::kFlatChunk);
    add(solution, "solution/list_offsets", "list_offsets", std::int64_t{}, layout::kRecordChunk);
    add(solution, "solution/offsets", "offsets", std::int64_t{}, layout::kRecordChunk);
    for (const FieldSpec& f : problem_.instance_fields()) {
      const std::string key = "instance/" + f.name;
      switch (f.kind) {
        case FieldKind::kInt: add(instance, key, f.name, std::int64_t{}, layout::kRecordChunk); break;
        case FieldKind::kReal: add(instance, key, f.name, double{}, layout::kRecordChunk); break;
        case FieldKind::kIntArray: add(instance, key, f.name, std::int32_t{}, layout::kFlatChunk); break;
        case FieldKind::kRealArray: add(instance, key, f.name, double{}, layout::kFlatChunk); break;
      }
      if (f.kind == FieldKind::kIntArray || f.kind == FieldKind::kRealArray) {
        add(instance, key + "_offsets", f.name + "_offsets", std::int64_t{}, layout::kRecordChunk);
        s.col(key + "_offsets").append(std::vector<std::int64_t>{0});
        s.field_end[f.name] = 0;
      }
    }
    s.col("name_offsets").append(std::vector<std::int64_t>{0});
    s.col("solution/list_offsets").append(std::vector<std::int64_t>{0});
    s.col("solution/offsets").append(std::vector<std::int64_t>{0});
  });
}

void DatasetWriter::append(const std::vector<Record>& records) {
  if (!split_) throw Error("DatasetWriter: append() outside a split");
  if (records.empty()) return;
  SplitState& s = *split_;
  const std::string where = tmp_path_ + ": split '" + s.info.name + "'";
  std::vector<std::int64_t> index, name_offsets, list_offsets, offsets;
  std::vector<std::uint64_t> seed, solver_seed;
  std::vector<std::int32_t> n, distribution, bucket, solver, items;
  std::vector<double> objective, seconds;
  std::vector<std::uint8_t> names;
  for (const Record& r : records) {
    if (r.index <= s.last_index) throw Error(where + ": records must be appended in ascending index order (got " + std::to_string(r.index) + ")");
    if (r.distribution < 0 || r.distribution >= static_cast<int>(s.info.distributions.size()) || r.bucket < 0 ||
        r.bucket >= static_cast<int>(s.info.buckets.size())) {
      throw Error(where + ": record " + std::to_string(r.index) + " refers to a distribution or bucket the split does not have");
    }
    s.last_index = r.index;
    index.push_back(r.index);
    seed.push_back(r.seed);
    n.push_back(r.n);
    distribution.push_back(r.distribution);
    bucket.push_back(r.bucket);
    objective.push_back(r.label.objective);
    solver_seed.push_back(r.label.solver_seed);
    seconds.push_back(r.label.seconds);
    auto code = std::find(s.solvers.begin(), s.solvers.end(), r.label.solver);
    if (code == s.solvers.end()) code = s.solvers.insert(s.solvers.end(), r.label.solver);
    solver.push_back(static_cast<std::int32_t>(code - s.solvers.begin()));
    names.insert(names.end(), r.name.begin(), r.name.end());
    s.name_end += static_cast<std::int64_t>(r.name.size());
    name_offsets.push_back(s.name_end);
    for (const auto& list : r.label.solution.lists) {
      items.insert(items.end(), list.begin(), list.end());
      s.item_end += static_cast<std::int64_t>(list.size());
      list_offsets.push_back(s.item_end);
    }
    s.lists_end += static_cast<std::int64_t>(r.label.solution.lists.size());
    offsets.push_back(s.lists_end);
  }
  h5::guard(where + ": cannot write records", [&] {
    s.col("index").append(index);
    s.col("seed").append(seed);
    s.col("n").append(n);
    s.col("distribution").append(distribution);
    s.col("bucket").append(bucket);
    s.col("objective").append(objective);
    s.col("solver").append(solver);
    s.col("solver_seed").append(solver_seed);
    s.col("solve_seconds").append(seconds);
    s.col("name").append(names);
    s.col("name_offsets").append(name_offsets);
    s.col("solution/items").append(items);
    s.col("solution/list_offsets").append(list_offsets);
    s.col("solution/offsets").append(offsets);
    for (const FieldSpec& f : problem_.instance_fields()) {
      const std::string key = "instance/" + f.name;
      const std::string missing = where + ": a record lacks the instance field '" + f.name + "'";
      if (f.kind == FieldKind::kInt) {
        s.col(key).append(gather(records, &InstanceData::ints, f.name, missing));
      } else if (f.kind == FieldKind::kReal) {
        s.col(key).append(gather(records, &InstanceData::reals, f.name, missing));
      } else {
        std::vector<std::int64_t> ends;
        if (f.kind == FieldKind::kIntArray) {
          s.col(key).append(flatten(records, &InstanceData::int_arrays, f.name, missing, s.field_end[f.name], ends));
        } else {
          s.col(key).append(flatten(records, &InstanceData::real_arrays, f.name, missing, s.field_end[f.name], ends));
        }
        s.col(key + "_offsets").append(ends);
      }
    }
  });
  s.records += static_cast<std::int64_t>(records.size());
}

void DatasetWriter::end_split() {
  if (!split_) throw Error("DatasetWriter: end_split() outside a split");
  SplitState& s = *split_;
  h5::guard(tmp_path_ + ": split '" + s.info.name + "': cannot write its attributes", [&] {
    nlohmann::ordered_json distributions = nlohmann::ordered_json::array();
    for (const auto& d : s.info.distributions) distributions.push_back({{"name", d.name}, {"params", d.params}});
    nlohmann::ordered_json buckets = nlohmann::ordered_json::array();
    for (const auto& b : s.info.buckets) buckets.push_back({{"name", b.name}, {"min_n", b.min_n}, {"max_n", b.max_n}});
    h5::write_int_attr(s.group, "count", s.info.count);
    h5::write_int_attr(s.group, "size", s.records);
    h5::write_string_attr(s.group, "distributions", distributions.dump());
    h5::write_string_attr(s.group, "buckets", buckets.dump());
    h5::write_string_attr(s.group, "solvers", nlohmann::json(s.solvers).dump());
  });
  split_names_.push_back(s.info.name);
  split_.reset();
}

void DatasetWriter::commit(bool complete) {
  if (split_) throw Error("DatasetWriter: commit() inside a split");
  h5::guard(tmp_path_ + ": cannot finish the dataset file", [&] {
    H5::H5File& f = file_->file;
    h5::write_string_attr(f, "magic", kMagic);
    h5::write_int_attr(f, "schema_version", kSchemaVersion);
    h5::write_string_attr(f, "problem", std::string(problem_.name()));
    h5::write_string_attr(f, "splits", nlohmann::json(split_names_).dump());
    h5::write_int_attr(f, "complete", complete ? 1 : 0);
    h5::write_string_attr(f, "config", config_yaml_);
    h5::write_string_attr(f, "producer", "falcon_datagen " + std::string(layout::kProducerVersion));
    f.close();
  });
  sync_path(tmp_path_, /*directory=*/false);
  if (std::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
    throw Error(path_ + ": cannot move " + tmp_path_ + " into place (is the directory writable?)");
  }
  const std::string dir = std::filesystem::path(path_).parent_path().string();
  sync_path(dir.empty() ? "." : dir, /*directory=*/true);
  committed_ = true;
}

}  // namespace falcon::data
