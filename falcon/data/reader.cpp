#include "falcon/data/reader.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "falcon/core/crash_probe.h"
#include "falcon/core/error.h"
#include "falcon/data/h5_io.h"
#include "falcon/data/layout.h"
#include "falcon/problems/registry.h"

namespace falcon::data {
namespace {

using nlohmann::json;

constexpr const char* kCorruptHint = " (the file is corrupt; regenerate it with falcon_datagen)";

struct SplitData {
  SplitInfo info;
  std::int64_t size = 0;
  std::vector<std::string> solvers;
  H5::Group group;
  std::map<std::string, H5::DataSet> columns;          // "index", "solution/items", "instance/coords", ...
  std::map<std::string, std::vector<std::int64_t>> offsets;  // "name_offsets", "solution/offsets", ...
  std::vector<std::int64_t> indices;
};

}  // namespace

struct DatasetReader::Impl {
  std::string path;
  const problems::Problem* problem = nullptr;
  std::string config_yaml;
  bool complete = false;
  std::vector<std::string> split_names;
  std::map<std::string, SplitData> splits;
  H5::H5File file;

  Error error(const std::string& what) const { return Error(path + ": " + what); }

  const SplitData& split(const std::string& name) const {
    auto it = splits.find(name);
    if (it == splits.end()) {
      std::string known;
      for (const auto& s : split_names) known += (known.empty() ? "" : ", ") + s;
      throw error("no split '" + name + "' (splits: " + known + ")");
    }
    return it->second;
  }

  void open_split(const std::string& name);
  std::vector<Record> read(const SplitData& s, std::int64_t begin, std::int64_t end) const;
};

namespace {

template <class T>
std::vector<T> read_column(const SplitData& s, const std::string& column, hsize_t begin, hsize_t end, const std::string& path) {
  return h5::read_slice<T>(s.columns.at(column), begin, end, path + ": /" + s.info.name + "/" + column);
}

// Offsets must start at 0, never decrease and end at the length of the column they cut.
void check_offsets(const std::vector<std::int64_t>& offsets, std::size_t expected_size, hsize_t data_size, const std::string& what) {
  if (offsets.size() != expected_size) {
    throw Error(what + " has " + std::to_string(offsets.size()) + " entries, expected " + std::to_string(expected_size) + kCorruptHint);
  }
  if (offsets.front() != 0) throw Error(what + " does not start at 0" + std::string(kCorruptHint));
  for (std::size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] < offsets[i - 1]) throw Error(what + " decreases at entry " + std::to_string(i) + kCorruptHint);
  }
  if (static_cast<hsize_t>(offsets.back()) != data_size) {
    throw Error(what + " ends at " + std::to_string(offsets.back()) + " but its column has " + std::to_string(data_size) +
                " values" + kCorruptHint);
  }
}

std::map<std::string, std::string> string_map(const json& j) {
  std::map<std::string, std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it) out[it.key()] = it.value().get<std::string>();
  return out;
}

}  // namespace

void DatasetReader::Impl::open_split(const std::string& name) {
  SplitData s;
  s.info.name = name;
  const std::string where = "split '" + name + "'";
  h5::guard(path + ": " + where, [&] {
    if (!file.nameExists(name)) throw error("the split '" + name + "' listed in 'splits' is missing" + kCorruptHint);
    s.group = file.openGroup(name);
    auto count = h5::read_int_attr(s.group, "count");
    auto size = h5::read_int_attr(s.group, "size");
    auto distributions = h5::read_string_attr(s.group, "distributions");
    auto buckets = h5::read_string_attr(s.group, "buckets");
    auto solvers = h5::read_string_attr(s.group, "solvers");
    if (!count || !size || !distributions || !buckets || !solvers) {
      throw error(where + " lacks one of its attributes count, size, distributions, buckets, solvers" + kCorruptHint);
    }
    s.info.count = *count;
    s.size = *size;
    try {
      for (const auto& d : json::parse(*distributions)) s.info.distributions.push_back({d.at("name").get<std::string>(), string_map(d.at("params"))});
      for (const auto& b : json::parse(*buckets)) s.info.buckets.push_back({b.at("name"), b.at("min_n"), b.at("max_n")});
      s.solvers = json::parse(*solvers).get<std::vector<std::string>>();
    } catch (const json::exception& e) {
      throw error(where + ": an attribute is not the JSON the schema describes (" + e.what() + ")" + kCorruptHint);
    }
  });

  std::vector<std::pair<std::string, std::string>> columns = {  // key, what it is cut by
      {"index", ""}, {"seed", ""}, {"n", ""}, {"distribution", ""}, {"bucket", ""}, {"objective", ""},
      {"solver", ""}, {"solver_seed", ""}, {"solve_seconds", ""}, {"name", "name_offsets"}, {"name_offsets", ""},
      {"solution/items", "solution/list_offsets"}, {"solution/list_offsets", ""}, {"solution/offsets", ""}};
  for (const FieldSpec& f : problem->instance_fields()) {
    const bool array = f.kind == FieldKind::kIntArray || f.kind == FieldKind::kRealArray;
    columns.push_back({"instance/" + f.name, array ? "instance/" + f.name + "_offsets" : ""});
    if (array) columns.push_back({"instance/" + f.name + "_offsets", ""});
  }
  const std::string group_path = "/" + name + "/";
  h5::guard(path + ": " + where, [&] {
    for (const auto& [column, cut_by] : columns) {
      if (!s.group.nameExists(column)) throw error(group_path + column + " is missing" + kCorruptHint);
      s.columns.emplace(column, s.group.openDataSet(column));
    }
  });
  const auto n = static_cast<hsize_t>(s.size);
  for (const auto& [column, cut_by] : columns) {
    const hsize_t len = h5::length(s.columns.at(column));
    const bool is_offsets = column.size() > 8 && column.compare(column.size() - 8, 8, "_offsets") == 0;
    if (column == "solution/list_offsets") continue;  // checked against solution/offsets below
    if (!cut_by.empty()) continue;                    // flat data: checked with its offsets
    const hsize_t expected = is_offsets || column == "solution/offsets" ? n + 1 : n;
    if (len != expected) {
      throw error(group_path + column + " has " + std::to_string(len) + " entries, expected " + std::to_string(expected) +
                  " (the split's size is " + std::to_string(n) + ")" + kCorruptHint);
    }
  }
  s.offsets["solution/offsets"] = read_column<std::int64_t>(s, "solution/offsets", 0, n + 1, path);
  const hsize_t lists = h5::length(s.columns.at("solution/list_offsets"));
  if (lists == 0) throw error(group_path + "solution/list_offsets is empty" + kCorruptHint);
  check_offsets(s.offsets["solution/offsets"], n + 1, lists - 1, path + ": " + group_path + "solution/offsets");
  for (const auto& [column, cut_by] : columns) {
    if (cut_by.empty()) continue;
    const hsize_t rows = cut_by == "solution/list_offsets" ? lists : n + 1;
    s.offsets[cut_by] = read_column<std::int64_t>(s, cut_by, 0, rows, path);
    check_offsets(s.offsets[cut_by], rows, h5::length(s.columns.at(column)), path + ": " + group_path + cut_by);
  }
  s.indices = read_column<std::int64_t>(s, "index", 0, n, path);
  for (std::size_t i = 1; i < s.indices.size(); ++i) {
    if (s.indices[i] <= s.indices[i - 1]) throw error(group_path + "index is not strictly increasing at " + std::to_string(i) + kCorruptHint);
  }
  auto check_codes = [&](const std::string& column, std::size_t table) {
    for (std::int32_t c : read_column<std::int32_t>(s, column, 0, n, path)) {
      if (c < 0 || static_cast<std::size_t>(c) >= table) throw error(group_path + column + " holds code " + std::to_string(c) + " outside its table" + kCorruptHint);
    }
  };
  check_codes("distribution", s.info.distributions.size());
  check_codes("bucket", s.info.buckets.size());
  check_codes("solver", s.solvers.size());
  splits.emplace(name, std::move(s));
}

DatasetReader DatasetReader::open(const std::string& path, std::string_view expected_problem,
                                  std::optional<double> probe_limit_s) {
  // HDF5 1.10 can crash or loop forever on a damaged file instead of returning an error (found by
  // fuzzing: a corrupt global heap under a string attribute sends H5HG_read into memcpy with a
  // wild length; other damage spins). So a child process reads the whole file first; if the
  // library crashes or hangs there, the file is refused here and this process never reads it.
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  if (!ec) {
    // Far above an honest read: a 40,000-record file of 17 MB reads in well under a second.
    const double limit_s = probe_limit_s.value_or(10.0 + static_cast<double>(bytes) / 1e6);  // + 1 s per MB
    const ProbeOutcome probe = probe_in_child([&] { read_every_record(path); }, limit_s);
    if (probe.failed)
      throw Error(path + ": damaged: reading it broke the HDF5 library (" + probe.how +
                  "); make it again with falcon_datagen, or restore a copy");
  }
  return open_unprobed(path, expected_problem);
}

void DatasetReader::read_every_record(const std::string& path) {
  const DatasetReader all = open_unprobed(path, "");
  for (const auto& split : all.split_names()) (void)all.read(split, 0, all.size(split));
}

DatasetReader DatasetReader::open_unprobed(const std::string& path, std::string_view expected_problem) {
  h5::quiet();
  auto impl = std::make_shared<Impl>();
  impl->path = path;
  std::error_code lookup;
  if (!std::filesystem::exists(path, lookup))
    throw impl->error(lookup ? "cannot look it up (" + lookup.message() + ")" : "no such file");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw impl->error("not an HDF5 file (truncated, corrupt, or another format)");
  try {
    h5::guard(path + ": cannot open as HDF5", [&] { impl->file = H5::H5File(path, H5F_ACC_RDONLY); });
  } catch (const Error& e) {
    throw Error(std::string(e.what()) + " (the file is truncated or corrupt)");
  }
  std::optional<std::string> magic, problem, config, splits;
  std::optional<std::int64_t> version, complete;
  h5::guard(path + ": cannot read the file attributes", [&] {
    magic = h5::read_string_attr(impl->file, "magic");
    version = h5::read_int_attr(impl->file, "schema_version");
    problem = h5::read_string_attr(impl->file, "problem");
    config = h5::read_string_attr(impl->file, "config");
    splits = h5::read_string_attr(impl->file, "splits");
    complete = h5::read_int_attr(impl->file, "complete");
  });
  if (!magic || *magic != kMagic) throw impl->error("not a FALCON dataset (no '" + std::string(kMagic) + "' magic attribute; make one with falcon_datagen)");
  if (!version) throw impl->error("no schema_version attribute" + std::string(kCorruptHint));
  if (*version != kSchemaVersion) {
    throw impl->error("schema version " + std::to_string(*version) + ", but this build reads version " + std::to_string(kSchemaVersion) +
                      " (regenerate the file with this build's falcon_datagen)");
  }
  if (!problem || !config || !splits || !complete) throw impl->error("lacks one of the attributes problem, config, splits, complete" + std::string(kCorruptHint));
  if (!expected_problem.empty() && *problem != expected_problem) {
    throw impl->error("holds '" + *problem + "' instances, expected '" + std::string(expected_problem) + "'");
  }
  try {
    impl->problem = &problems::problem_by_name(*problem);
  } catch (const Error& e) {
    throw impl->error(e.what());
  }
  impl->config_yaml = *config;
  impl->complete = *complete != 0;
  try {
    impl->split_names = json::parse(*splits).get<std::vector<std::string>>();
  } catch (const json::exception&) {
    throw impl->error("the 'splits' attribute is not a JSON list of names" + std::string(kCorruptHint));
  }
  for (const auto& name : impl->split_names) {
    h5::guard(path + ": split '" + name + "'", [&] { impl->open_split(name); });
  }
  DatasetReader reader;
  reader.impl_ = std::move(impl);
  return reader;
}

std::vector<Record> DatasetReader::Impl::read(const SplitData& s, std::int64_t begin, std::int64_t end) const {
  if (begin < 0 || begin > end || end > s.size) {
    throw error("split '" + s.info.name + "': records [" + std::to_string(begin) + ", " + std::to_string(end) + ") are outside its " +
                std::to_string(s.size) + " records");
  }
  const auto b = static_cast<hsize_t>(begin), e = static_cast<hsize_t>(end);
  std::vector<Record> out(e - b);
  if (out.empty()) return out;
  const auto index = read_column<std::int64_t>(s, "index", b, e, path);
  const auto seed = read_column<std::uint64_t>(s, "seed", b, e, path);
  const auto n = read_column<std::int32_t>(s, "n", b, e, path);
  const auto distribution = read_column<std::int32_t>(s, "distribution", b, e, path);
  const auto bucket = read_column<std::int32_t>(s, "bucket", b, e, path);
  const auto objective = read_column<double>(s, "objective", b, e, path);
  const auto solver = read_column<std::int32_t>(s, "solver", b, e, path);
  const auto solver_seed = read_column<std::uint64_t>(s, "solver_seed", b, e, path);
  const auto seconds = read_column<double>(s, "solve_seconds", b, e, path);
  const auto& name_off = s.offsets.at("name_offsets");
  const auto names = read_column<std::uint8_t>(s, "name", name_off[b], name_off[e], path);
  const auto& sol_off = s.offsets.at("solution/offsets");
  const auto& list_off = s.offsets.at("solution/list_offsets");
  const auto items = read_column<std::int32_t>(s, "solution/items", list_off[sol_off[b]], list_off[sol_off[e]], path);
  for (hsize_t i = 0; i < out.size(); ++i) {
    Record& r = out[i];
    const hsize_t k = b + i;
    r.index = index[i];
    r.seed = seed[i];
    r.n = n[i];
    r.distribution = distribution[i];
    r.bucket = bucket[i];
    r.name.assign(names.begin() + (name_off[k] - name_off[b]), names.begin() + (name_off[k + 1] - name_off[b]));
    r.label.objective = objective[i];
    r.label.solver = s.solvers[solver[i]];
    r.label.solver_seed = solver_seed[i];
    r.label.seconds = seconds[i];
    const std::int64_t item0 = list_off[sol_off[b]];
    for (std::int64_t l = sol_off[k]; l < sol_off[k + 1]; ++l) {
      r.label.solution.lists.emplace_back(items.begin() + (list_off[l] - item0), items.begin() + (list_off[l + 1] - item0));
    }
  }
  for (const FieldSpec& f : problem->instance_fields()) {
    const std::string column = "instance/" + f.name;
    if (f.kind == FieldKind::kInt) {
      const auto v = read_column<std::int64_t>(s, column, b, e, path);
      for (hsize_t i = 0; i < out.size(); ++i) out[i].instance.ints[f.name] = v[i];
    } else if (f.kind == FieldKind::kReal) {
      const auto v = read_column<double>(s, column, b, e, path);
      for (hsize_t i = 0; i < out.size(); ++i) out[i].instance.reals[f.name] = v[i];
    } else {
      const auto& off = s.offsets.at(column + "_offsets");
      auto cut = [&](const auto& flat, auto dest_of) {
        for (hsize_t i = 0; i < out.size(); ++i) {
          dest_of(out[i]).assign(flat.begin() + (off[b + i] - off[b]), flat.begin() + (off[b + i + 1] - off[b]));
        }
      };
      if (f.kind == FieldKind::kIntArray) {
        cut(read_column<std::int32_t>(s, column, off[b], off[e], path), [&](Record& r) -> auto& { return r.instance.int_arrays[f.name]; });
      } else {
        cut(read_column<double>(s, column, off[b], off[e], path), [&](Record& r) -> auto& { return r.instance.real_arrays[f.name]; });
      }
    }
  }
  return out;
}

const std::string& DatasetReader::path() const { return impl_->path; }
const problems::Problem& DatasetReader::problem() const { return *impl_->problem; }
const std::string& DatasetReader::config_yaml() const { return impl_->config_yaml; }
bool DatasetReader::complete() const { return impl_->complete; }
const std::vector<std::string>& DatasetReader::split_names() const { return impl_->split_names; }
bool DatasetReader::has_split(const std::string& split) const { return impl_->splits.count(split) > 0; }
const SplitInfo& DatasetReader::split_info(const std::string& split) const { return impl_->split(split).info; }
std::int64_t DatasetReader::size(const std::string& split) const { return impl_->split(split).size; }
const std::vector<std::string>& DatasetReader::solvers(const std::string& split) const { return impl_->split(split).solvers; }
const std::vector<std::int64_t>& DatasetReader::indices(const std::string& split) const { return impl_->split(split).indices; }

std::vector<Record> DatasetReader::read(const std::string& split, std::int64_t begin, std::int64_t end) const {
  return impl_->read(impl_->split(split), begin, end);
}

Record DatasetReader::read(const std::string& split, std::int64_t position) const {
  return std::move(read(split, position, position + 1).front());
}

LabeledInstance DatasetReader::load(const std::string& split, std::int64_t position) const {
  LabeledInstance out;
  out.record = read(split, position);
  const std::string where = impl_->path + ": " + split + "[" + std::to_string(out.record.index) + "]";
  out.instance = decode_instance(*impl_->problem, out.record.instance, out.record.n, out.record.name, where);
  return out;
}

void DatasetReader::verify() const {
  constexpr std::int64_t kBatch = 1024;
  const problems::Problem& problem = *impl_->problem;
  for (const auto& name : impl_->split_names) {
    const SplitData& s = impl_->split(name);
    for (std::int64_t b = 0; b < s.size; b += kBatch) {
      for (const Record& r : impl_->read(s, b, std::min(s.size, b + kBatch))) {
        const std::string where = impl_->path + ": " + name + "[" + std::to_string(r.index) + "]";
        const auto instance = decode_instance(problem, r.instance, r.n, r.name, where);
        if (!problem.feasible(*instance, r.label.solution)) throw Error(where + ": the stored solution is not feasible");
        const double objective = problem.objective(*instance, r.label.solution);
        if (std::abs(objective - r.label.objective) > 1e-9 * std::max(1.0, std::abs(objective))) {
          throw Error(where + ": the stored objective " + std::to_string(r.label.objective) + " is not the solution's " +
                      std::to_string(objective));
        }
      }
    }
  }
}

}  // namespace falcon::data
