#include "falcon/model/checkpoint.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <regex>

#include "falcon/core/atomic_file.h"
#include "falcon/core/config.h"
#include "falcon/core/error.h"
#include "falcon/model/adamw_state.h"
#include "falcon/model/config/json_file.h"
#include "falcon/model/state_dict.h"

namespace falcon::model {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kModelFile = "model.safetensors";
constexpr const char* kOptimizerFile = "optimizer.safetensors";
constexpr const char* kTrainerFile = "trainer_state.json";
constexpr const char* kConfigFile = "config.yaml";
constexpr const char* kManifestFile = "checkpoint.json";
constexpr const char* kLatestFile = "latest";
constexpr const char* kFormat = "falcon-checkpoint";
constexpr const char* kOptimizerMetadata = "falcon.optimizer";
constexpr int kVersion = 1;

std::string path_in(const std::string& dir, const std::string& name) { return (fs::path(dir) / name).string(); }

std::string step_name(std::int64_t step) { return "step_" + std::to_string(step); }

// The step of "step_<N>", or -1 for any other name (temporaries included).
std::int64_t step_of(const std::string& name) {
  static const std::regex kStep(R"(step_(\d{1,18}))");
  std::smatch m;
  return std::regex_match(name, m, kStep) ? std::stoll(m[1].str()) : -1;
}

const char* weights_name(CheckpointWeights w) { return w == CheckpointWeights::kAll ? "all" : "trainable"; }

// Step directories by step (complete or not), oldest first.
std::vector<std::pair<std::int64_t, std::string>> step_dirs(const std::string& root) {
  std::vector<std::pair<std::int64_t, std::string>> out;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::int64_t step = step_of(it->path().filename().string());
    if (step >= 0 && it->is_directory()) out.emplace_back(step, it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Removes step_<N>.tmp-<pid> / .old-<pid> directories of processes that no longer run (a crash
// mid-save). Directories of live processes, this one included, are left alone.
void remove_stale_temporaries(const std::string& root) {
  static const std::regex kTemp(R"(step_\d+\.(tmp|old)-(\d{1,9}))");
  std::error_code ec;
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    std::smatch m;
    const std::string name = it->path().filename().string();
    if (!std::regex_match(name, m, kTemp)) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(m[2].str()));
    if (pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH) stale.push_back(it->path());
  }
  for (const auto& p : stale) fs::remove_all(p, ec);
}

void prune(const std::string& root, int keep_last, const std::string& keep) {
  if (keep_last <= 0) return;
  auto dirs = step_dirs(root);
  if (static_cast<int>(dirs.size()) <= keep_last) return;
  dirs.resize(dirs.size() - static_cast<std::size_t>(keep_last));  // the oldest ones
  std::error_code ec;
  for (const auto& [step, dir] : dirs) {
    if (fs::equivalent(dir, keep, ec)) continue;
    fs::remove_all(dir, ec);
    if (ec) throw Error(dir + ": cannot remove the old checkpoint: " + ec.message());
  }
}

TensorMap weights_to_save(const torch::nn::Module& module, CheckpointWeights kind) {
  TensorMap out;
  if (kind == CheckpointWeights::kAll) {
    for (const auto& [name, t] : state_dict(module)) out.emplace(name, t.to(torch::kCPU));
  } else {
    for (const auto& item : module.named_parameters(true))
      if (item.value().requires_grad()) out.emplace(item.key(), item.value().detach().to(torch::kCPU));
  }
  return out;
}

// The module's tensors a checkpoint of this kind restores (live tensors, to copy into).
TensorMap load_targets(torch::nn::Module& module, CheckpointWeights kind) {
  TensorMap out;
  for (const auto& item : module.named_parameters(true))
    if (kind == CheckpointWeights::kAll || item.value().requires_grad()) out.emplace(item.key(), item.value());
  if (kind == CheckpointWeights::kAll)
    for (const auto& item : module.named_buffers(true)) out.emplace(item.key(), item.value());
  return out;
}

void write_step_dir(const std::string& dir, const CheckpointData& data, const torch::nn::Module& module,
                    torch::optim::AdamW* optimizer, const CheckpointSaveOptions& options) {
  const TensorMap weights = weights_to_save(module, options.weights);
  if (weights.empty())
    throw Error(dir + ": the model has no " + (options.weights == CheckpointWeights::kAll ? "tensors" : "trainable parameters") +
                " to save");
  write_safetensors(path_in(dir, kModelFile), weights, {{"format", "pt"}, {"falcon.weights", weights_name(options.weights)}});
  json files = json::array({kModelFile, kTrainerFile, kConfigFile});
  if (optimizer != nullptr) {
    const AdamWStateDict state = adamw_state_dict(*optimizer, module);
    write_safetensors(path_in(dir, kOptimizerFile), state.tensors, {{kOptimizerMetadata, state.groups.dump()}});
    files.push_back(kOptimizerFile);
  }
  write_json_file(path_in(dir, kTrainerFile), data.trainer_state);
  write_file_atomic(path_in(dir, kConfigFile), data.config_yaml);
  write_json_file(path_in(dir, kManifestFile), {{"format", kFormat},
                                                {"version", kVersion},
                                                {"step", data.step},
                                                {"weights", weights_name(options.weights)},
                                                {"optimizer", optimizer != nullptr ? json("AdamW") : json(nullptr)},
                                                {"base_model", options.base_model},
                                                {"files", files}});
}

struct Manifest {
  std::int64_t step = 0;
  CheckpointWeights weights = CheckpointWeights::kAll;
  bool has_optimizer = false;
  std::string base_model;
};

Manifest read_manifest(const std::string& dir) {
  const std::string path = path_in(dir, kManifestFile);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw Error(dir + ": no " + kManifestFile + ", so this is not a complete checkpoint directory");
  const json j = read_json_file(path);
  auto fail = [&](const std::string& field, const std::string& what) {
    return Error(path + ": field '" + field + "': " + what);
  };
  if (!j.is_object()) throw Error(path + ": expected a JSON object");
  if (!j.contains("format") || j["format"] != kFormat) throw fail("format", std::string("must be \"") + kFormat + "\"");
  if (!j.contains("version") || j["version"] != kVersion)
    throw fail("version", "this program reads version " + std::to_string(kVersion));
  Manifest m;
  if (!j.contains("step") || !j["step"].is_number_integer() || j["step"].get<std::int64_t>() < 0)
    throw fail("step", "must be a non-negative integer");
  m.step = j["step"].get<std::int64_t>();
  const std::string w = j.contains("weights") && j["weights"].is_string() ? j["weights"].get<std::string>() : "";
  if (w == "all") m.weights = CheckpointWeights::kAll;
  else if (w == "trainable") m.weights = CheckpointWeights::kTrainable;
  else throw fail("weights", "must be \"all\" or \"trainable\"");
  if (j.contains("optimizer") && !j["optimizer"].is_null()) {
    if (j["optimizer"] != "AdamW") throw fail("optimizer", "must be \"AdamW\" or null");
    m.has_optimizer = true;
  }
  if (j.contains("base_model") && j["base_model"].is_string()) m.base_model = j["base_model"].get<std::string>();
  const std::int64_t named = step_of(fs::path(dir).filename().string());
  if (named >= 0 && named != m.step)
    throw fail("step", std::to_string(m.step) + " differs from the directory name '" + fs::path(dir).filename().string() + "'");
  return m;
}

std::string require_file(const std::string& dir, const char* name) {
  const std::string path = path_in(dir, name);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw Error(path + ": missing; the checkpoint is incomplete");
  return path;
}

void check_config(const std::string& path, const std::string& stored, const CheckpointLoadOptions& options) {
  if (options.expected_config_yaml.empty()) return;
  std::string a = options.with_defaults ? options.with_defaults(stored, path) : stored;
  std::string b = options.expected_config_yaml;
  if (!options.ignored_config_paths.empty()) {
    a = Config::from_string(a, path).to_yaml_without(options.ignored_config_paths);
    b = Config::from_string(b, "the run's config").to_yaml_without(options.ignored_config_paths);
  }
  const std::string diff = Config::first_difference(a, b);
  if (!diff.empty())
    throw Error(path + ": key '" + diff + "' differs from the run's config (resume with the config the checkpoint "
                                          "was written with, or start a new checkpoint directory)");
}

}  // namespace

std::vector<std::string> list_checkpoints(const std::string& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& [step, dir] : step_dirs(root))
    if (fs::is_regular_file(path_in(dir, kManifestFile), ec)) out.push_back(dir);
  return out;
}

std::string find_checkpoint(const std::string& dir_or_root) {
  std::error_code ec;
  if (fs::is_regular_file(path_in(dir_or_root, kManifestFile), ec)) return dir_or_root;
  const std::string latest = path_in(dir_or_root, kLatestFile);
  if (fs::is_regular_file(latest, ec)) {
    std::string name = read_file(latest);
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
    if (step_of(name) < 0) throw Error(latest + ": expected 'step_<N>', found '" + name.substr(0, 64) + "'");
    const std::string dir = path_in(dir_or_root, name);
    if (!fs::is_directory(dir, ec)) throw Error(latest + ": names '" + name + "', which does not exist");
    return dir;
  }
  const auto all = list_checkpoints(dir_or_root);
  return all.empty() ? "" : all.back();
}

std::string save_checkpoint(const std::string& root, const CheckpointData& data, const torch::nn::Module& module,
                            torch::optim::AdamW* optimizer, const CheckpointSaveOptions& options) {
  if (data.step < 0) throw Error(root + ": checkpoint step " + std::to_string(data.step) + " is negative");
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec) throw Error(root + ": cannot create the checkpoint directory: " + ec.message());
  const std::string name = step_name(data.step), pid = std::to_string(::getpid());
  const std::string final_dir = path_in(root, name), tmp = path_in(root, name + ".tmp-" + pid);

  fs::remove_all(tmp, ec);
  if (!fs::create_directory(tmp, ec)) throw Error(tmp + ": cannot create: " + ec.message());
  try {
    write_step_dir(tmp, data, module, optimizer, options);
    fsync_tree(tmp);
    if (fs::exists(final_dir)) {  // the same step again (e.g. after a resume): swap, then drop the old one
      const std::string old = path_in(root, name + ".old-" + pid);
      fs::remove_all(old);
      fs::rename(final_dir, old);
      fs::rename(tmp, final_dir);
      fs::remove_all(old);
    } else {
      fs::rename(tmp, final_dir);
    }
    fsync_directory(root);
  } catch (const std::exception& e) {
    fs::remove_all(tmp, ec);
    throw Error(final_dir + ": cannot write the checkpoint: " + e.what());
  }
  write_file_atomic(path_in(root, kLatestFile), name + "\n");
  remove_stale_temporaries(root);
  prune(root, options.keep_last, final_dir);
  return final_dir;
}

LoadedCheckpoint load_checkpoint(const std::string& dir_or_root, torch::nn::Module& module,
                                 torch::optim::AdamW* optimizer, const CheckpointLoadOptions& options) {
  const std::string dir = find_checkpoint(dir_or_root);
  if (dir.empty() && step_of(fs::path(dir_or_root).filename().string()) >= 0) read_manifest(dir_or_root);  // names what is missing
  if (dir.empty()) throw Error(dir_or_root + ": no checkpoint here (no checkpoint.json, no 'latest', no step_<N>/)");
  const Manifest manifest = read_manifest(dir);

  // Read and check everything first.
  const std::string model_path = require_file(dir, kModelFile);
  const TensorMap weights = read_safetensors(model_path);
  const TensorMap targets = load_targets(module, manifest.weights);
  LoadOptions check;
  check.ignore_unexpected.clear();
  check.source = model_path;
  check.hint = manifest.weights == CheckpointWeights::kAll
                   ? "The checkpoint was written for another model: compare its config.yaml with the run's model "
                     "section."
                   : "The checkpoint holds the trainable parameters of another setup: use the same model, LoRA and "
                     "freezing settings as when it was saved.";
  check_tensors(targets, weights, check);

  AdamWStateDict optimizer_state;
  std::string optimizer_path;
  if (optimizer != nullptr) {
    if (!manifest.has_optimizer)
      throw Error(path_in(dir, kManifestFile) + ": this checkpoint holds no optimizer state (saved without one)");
    optimizer_path = require_file(dir, kOptimizerFile);
    optimizer_state.tensors = read_safetensors(optimizer_path);
    const Metadata meta = read_safetensors_metadata(optimizer_path);
    const auto it = meta.find(kOptimizerMetadata);
    if (it == meta.end()) throw Error(optimizer_path + ": no '" + kOptimizerMetadata + "' metadata (param groups)");
    optimizer_state.groups = parse_json(it->second, optimizer_path + " metadata '" + kOptimizerMetadata + "'");
  }

  LoadedCheckpoint out;
  out.dir = dir;
  out.weights = manifest.weights;
  out.base_model = manifest.base_model;
  out.data.step = manifest.step;
  out.data.trainer_state = read_json_file(require_file(dir, kTrainerFile));
  const std::string config_path = require_file(dir, kConfigFile);
  out.data.config_yaml = read_file(config_path);
  check_config(config_path, out.data.config_yaml, options);

  // Install: the optimizer validates fully before it changes anything; the weights were checked.
  if (optimizer != nullptr) load_adamw_state_dict(*optimizer, module, optimizer_state, optimizer_path);
  load_into(targets, weights, check);
  return out;
}

}  // namespace falcon::model
