#include "falcon/scoring/finished_results.h"

#include <filesystem>
#include <sstream>
#include <vector>

#include "falcon/core/atomic_file.h"
#include "falcon/core/config.h"
#include "falcon/core/error.h"

namespace falcon::scoring {
namespace {

namespace fs = std::filesystem;

std::string without_free_settings(const std::string& yaml, const std::string& source) {
  const std::vector<std::string> free(std::begin(kResumeFreeSettings), std::end(kResumeFreeSettings));
  return Config::from_string(yaml, source).to_yaml_without(free);
}

// "line N: 'a' here, 'b' in this run" for the first line where two YAML texts differ.
std::string first_difference(const std::string& stored, const std::string& now) {
  std::istringstream a(stored), b(now);
  std::string x, y;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, x)), more_b = static_cast<bool>(std::getline(b, y));
    if (!more_a && !more_b) return "";
    if (!more_a) x = "(end)";
    if (!more_b) y = "(end)";
    if (x != y) return "'" + x + "' there, '" + y + "' in this run";
  }
}

}  // namespace

FinishedResults read_finished_results(const std::string& output_dir, const std::string& config_yaml) {
  FinishedResults finished;
  const std::string jsonl_path = (fs::path(output_dir) / "instances.jsonl").string();
  if (!fs::exists(jsonl_path)) return finished;

  const std::string config_path = (fs::path(output_dir) / "config.yaml").string();
  if (!fs::exists(config_path))
    throw Error(config_path + ": missing, so the results in instances.jsonl cannot be matched to this run's config; "
                              "run without --resume to start over, or choose another output_dir");
  const std::string stored = without_free_settings(read_file(config_path), config_path);
  const std::string now = without_free_settings(config_yaml, "this run's config");
  if (stored != now)
    throw Error(config_path + ": the interrupted run had another config (" + first_difference(stored, now) +
                "); resume with the same config and overrides, run without --resume to start over, or choose "
                "another output_dir");

  const std::string text = read_file(jsonl_path);
  std::size_t begin = 0;
  for (int line_number = 1; begin < text.size(); ++line_number) {
    const std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) {  // cut short by the interruption: that instance runs again
      finished.dropped_cut_line = true;
      break;
    }
    const std::string line = text.substr(begin, end - begin);
    const std::string place = jsonl_path + ":" + std::to_string(line_number);
    const auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) throw Error(place + ": not a JSON line; delete the file (or run without --resume) to start over");
    InstanceResult r;
    try {
      r = instance_result_from_json(j);
    } catch (const Error& e) {
      throw Error(place + ": not an instance result (" + e.what() + "); run without --resume to start over");
    }
    if (finished.by_row_and_key.count({r.row, r.key}))
      throw Error(place + ": instance '" + r.instance + "' of row '" + r.row +
                  "' appears twice; run without --resume to start over");
    finished.by_row_and_key.emplace(std::make_pair(r.row, r.key), std::move(r));
    begin = end + 1;
    finished.complete_bytes = begin;
  }
  return finished;
}

}  // namespace falcon::scoring
