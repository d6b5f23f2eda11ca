#include "falcon/scoring/eval_instances.h"

#include <algorithm>
#include <filesystem>

#include "falcon/core/error.h"
#include "falcon/data/reader.h"
#include "falcon/problems/registry.h"

namespace falcon::scoring {

namespace fs = std::filesystem;

std::vector<std::string> expand_instance_files(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths) {
    if (!fs::is_directory(p)) {
      out.push_back(p);
      continue;
    }
    std::vector<std::string> inside;
    for (const auto& entry : fs::directory_iterator(p)) {
      const auto name = entry.path().filename().string();
      if (!entry.is_regular_file() || name.empty() || name[0] == '.' || entry.path().extension() == ".md") continue;
      inside.push_back(entry.path().string());
    }
    std::sort(inside.begin(), inside.end());
    out.insert(out.end(), inside.begin(), inside.end());
  }
  return out;
}

std::vector<EvalInstance> load_eval_instances(const DataSpec& data) {
  std::vector<EvalInstance> out;
  if (!data.dataset.empty()) {
    const auto reader = data::DatasetReader::open(data.dataset);
    if (!reader.has_split(data.split)) {
      std::string known;
      for (const auto& s : reader.split_names()) known += (known.empty() ? "" : ", ") + s;
      throw Error(data.dataset + ": no split '" + data.split + "' (data.split: one of " + known + ")");
    }
    std::int64_t count = reader.size(data.split);
    if (data.limit > 0) count = std::min(count, data.limit);
    for (std::int64_t i = 0; i < count; ++i) {
      auto labeled = reader.load(data.split, i);
      EvalInstance e;
      e.problem = &reader.problem();
      e.instance = labeled.instance;
      e.name = labeled.instance->name;
      e.key = static_cast<std::uint64_t>(labeled.record.index);
      e.reference = labeled.record.label.objective;
      out.push_back(std::move(e));
    }
  } else {
    const auto& problem = problems::problem_by_name(data.problem);
    auto files = expand_instance_files(data.files);
    if (data.limit > 0 && static_cast<std::int64_t>(files.size()) > data.limit) files.resize(data.limit);
    for (std::size_t i = 0; i < files.size(); ++i) {
      EvalInstance e;
      e.problem = &problem;
      e.instance = problem.read_file(files[i]);
      e.name = e.instance->name;
      e.key = i;
      if (auto it = data.optima.find(e.name); it != data.optima.end()) e.reference = it->second;
      out.push_back(std::move(e));
    }
  }
  if (out.empty()) throw Error("data: no instances (an empty split, directory or file list)");
  return out;
}

}  // namespace falcon::scoring
