#include "falcon/train/output_dir.h"

#include <filesystem>
#include <fstream>

#include "falcon/core/error.h"

namespace falcon::train {
namespace fs = std::filesystem;

namespace {

// What checkpoints/latest names ("step_1500"), or "" without one.
std::string latest_name(const fs::path& checkpoints) {
  std::ifstream in(checkpoints / "latest");
  std::string name;
  in >> name;
  return name;
}

// The earlier run's outputs in output_dir ("checkpoints/ (latest: step_1500), final/, metrics.jsonl"),
// or "" when it holds none.
std::string earlier_run_outputs(const std::string& output_dir) {
  const fs::path dir(output_dir);
  std::error_code ec;
  std::string out;
  const auto add = [&](const std::string& what) { out += (out.empty() ? "" : ", ") + what; };
  if (fs::is_directory(dir / "checkpoints", ec) && !fs::is_empty(dir / "checkpoints", ec)) {
    const std::string latest = latest_name(dir / "checkpoints");
    add("checkpoints/" + (latest.empty() ? "" : " (latest: " + latest + ")"));
  }
  if (fs::exists(dir / "final", ec)) add("final/");
  if (fs::exists(dir / "metrics.jsonl", ec)) add("metrics.jsonl");
  return out;
}

}  // namespace

void claim_output_dir(const std::string& output_dir, bool resume, bool overwrite, bool main) {
  if (resume && overwrite)
    throw Error("--resume and --overwrite: give one (--resume continues the run in " + output_dir +
                ", --overwrite starts again there)");
  if (resume) return;
  const std::string earlier = earlier_run_outputs(output_dir);
  if (earlier.empty()) return;
  if (!overwrite)
    throw Error("output_dir " + output_dir + " holds an earlier run (" + earlier +
                "), which starting from step 0 would replace: add --resume to continue it, --overwrite to "
                "start again there (its outputs are removed), or give another output_dir=");
  if (!main) return;
  std::error_code ec;
  for (const char* name : {"checkpoints", "final", "metrics.jsonl", "summary.json"}) {
    fs::remove_all(fs::path(output_dir) / name, ec);
    if (ec) throw Error(output_dir + "/" + name + ": cannot remove it for --overwrite (" + ec.message() + ")");
  }
}

}  // namespace falcon::train
