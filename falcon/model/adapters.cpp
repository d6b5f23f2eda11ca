#include "falcon/model/adapters.h"

#include <cmath>
#include <filesystem>
#include <set>

#include "falcon/core/error.h"
#include "falcon/model/config/json_file.h"
#include "falcon/model/state_dict.h"

namespace falcon::model {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kWeightsFile = "adapter_model.safetensors";
constexpr const char* kConfigFile = "adapter_config.json";
const std::string kSuffixA = ".lora_A.weight", kSuffixB = ".lora_B.weight";

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "model.layers.0.self_attn.q_proj.lora_A.weight" -> "q_proj"
std::string target_of(const std::string& name) {
  const std::string module = name.substr(0, name.size() - kSuffixA.size());
  const auto dot = module.find_last_of('.');
  return dot == std::string::npos ? module : module.substr(dot + 1);
}

std::string path_in(const std::string& dir, const char* file) { return (fs::path(dir) / file).string(); }

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

std::string list_text(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return "[" + s + "]";
}

// Fields of adapter_config.json, each error naming the file and the field.
class AdapterConfigFields {
 public:
  AdapterConfigFields(const json& root, std::string path) : root_(root), path_(std::move(path)) {}
  Error error(const std::string& field, const std::string& what) const {
    const auto it = root_.find(field);
    return Error(path_ + ": field '" + field + "'" + (it == root_.end() ? "" : " = " + it->dump()) + ": " + what);
  }
  bool has(const std::string& f) const { return root_.contains(f) && !root_.at(f).is_null(); }
  const json& at(const std::string& f) const { return root_.at(f); }
  // A field that must be absent, null, false or empty: an option this LoRA does not implement.
  void require_unset(const std::string& f, const std::string& what) const {
    if (!has(f)) return;
    const json& v = at(f);
    if ((v.is_boolean() && !v.get<bool>()) || ((v.is_object() || v.is_array()) && v.empty())) return;
    throw error(f, what + " is not supported");
  }

 private:
  const json& root_;
  std::string path_;
};

}  // namespace

void save_adapters(const std::string& dir, const NamedTensors& lora_parameters, const LoraConfig& config,
                   const AdapterSaveOptions& options) {
  if (config.rank <= 0) throw Error(dir + ": cannot save adapters with LoRA rank " + std::to_string(config.rank));
  if (lora_parameters.empty()) throw Error(dir + ": no LoRA parameters to save (add_lora() first)");
  const std::set<std::string> targets = as_set(config.target_modules);
  TensorMap tensors;
  for (const auto& [name, t] : lora_parameters) {
    const bool a = ends_with(name, kSuffixA), b = ends_with(name, kSuffixB);
    auto fail = [&](const std::string& what) { return Error(dir + ": adapter tensor '" + name + "': " + what); };
    if (!a && !b) throw fail("is not a LoRA parameter (names end in .lora_A.weight or .lora_B.weight)");
    if (!targets.count(target_of(name)))
      throw fail("module '" + target_of(name) + "' is not in target_modules " + list_text(config.target_modules));
    if (t.dim() != 2 || t.size(a ? 0 : 1) != config.rank)
      throw fail("shape " + shape_text(t.sizes()) + " does not have rank " + std::to_string(config.rank) +
                 (a ? " rows ([r, in])" : " columns ([out, r])"));
    tensors.emplace(kPeftPrefix + name, t.detach().to(torch::kCPU));
  }

  json c;
  c["peft_type"] = "LORA";
  c["task_type"] = "CAUSAL_LM";
  c["r"] = config.rank;
  c["lora_alpha"] = config.alpha;
  c["lora_dropout"] = config.dropout;
  c["target_modules"] = config.target_modules;
  c["bias"] = "none";
  c["fan_in_fan_out"] = false;
  c["use_rslora"] = false;
  c["use_dora"] = false;
  c["modules_to_save"] = nullptr;
  c["init_lora_weights"] = true;
  c["base_model_name_or_path"] =
      options.base_model_name_or_path.empty() ? json(nullptr) : json(options.base_model_name_or_path);
  c["inference_mode"] = options.inference_mode;

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(dir + ": cannot create the adapter directory: " + ec.message());
  write_safetensors(path_in(dir, kWeightsFile), tensors, {{"format", "pt"}});
  write_json_file(path_in(dir, kConfigFile), c);
}

PeftAdapter read_adapters(const std::string& dir) {
  const std::string config_path = path_in(dir, kConfigFile), weights_path = path_in(dir, kWeightsFile);
  std::error_code ec;
  if (!fs::is_regular_file(config_path, ec)) throw Error(dir + ": no " + kConfigFile + " (not a PEFT adapter directory)");
  if (!fs::is_regular_file(weights_path, ec))
    throw Error(dir + ": no " + kWeightsFile + (fs::exists(path_in(dir, "adapter_model.bin"), ec)
                                                     ? " (only adapter_model.bin: save the adapter with safetensors)"
                                                     : ""));
  const json root = read_json_file(config_path);
  if (!root.is_object()) throw Error(config_path + ": expected a JSON object");
  const AdapterConfigFields f(root, config_path);

  if (!f.has("peft_type") || f.at("peft_type") != "LORA") throw f.error("peft_type", "must be \"LORA\"");
  if (f.has("task_type") && f.at("task_type") != "CAUSAL_LM") throw f.error("task_type", "must be \"CAUSAL_LM\"");
  PeftAdapter out;
  if (!f.has("r") || !f.at("r").is_number_integer() || f.at("r").get<std::int64_t>() <= 0 ||
      f.at("r").get<std::int64_t>() > (1 << 20))
    throw f.error("r", "must be a positive integer");
  out.config.rank = f.at("r").get<int>();
  out.config.alpha = 8.0;  // PEFT's default
  if (f.has("lora_alpha")) {
    if (!f.at("lora_alpha").is_number() || !std::isfinite(f.at("lora_alpha").get<double>()))
      throw f.error("lora_alpha", "must be a number");
    out.config.alpha = f.at("lora_alpha").get<double>();
  }
  out.config.dropout = 0.0;
  if (f.has("lora_dropout")) {
    const json& d = f.at("lora_dropout");
    if (!d.is_number() || !(d.get<double>() >= 0.0 && d.get<double>() < 1.0))
      throw f.error("lora_dropout", "must be a number in [0, 1)");
    out.config.dropout = d.get<double>();
  }
  if (!f.has("target_modules")) throw f.error("target_modules", "missing");
  const json& tm = f.at("target_modules");
  if (tm.is_string()) throw f.error("target_modules", "a regular expression is not supported; list the module names");
  if (!tm.is_array() || tm.empty()) throw f.error("target_modules", "must be a non-empty list of module names");
  out.config.target_modules.clear();
  for (const auto& m : tm) {
    if (!m.is_string()) throw f.error("target_modules", "must be a list of strings");
    out.config.target_modules.push_back(m.get<std::string>());
  }
  if (f.has("bias") && f.at("bias") != "none") throw f.error("bias", "only \"none\" is supported");
  f.require_unset("fan_in_fan_out", "fan_in_fan_out (transposed weights)");
  f.require_unset("use_rslora", "rank-stabilised scaling (use_rslora)");
  f.require_unset("use_dora", "DoRA (use_dora)");
  f.require_unset("modules_to_save", "modules_to_save");
  f.require_unset("rank_pattern", "a per-module rank_pattern");
  f.require_unset("alpha_pattern", "a per-module alpha_pattern");
  f.require_unset("layers_to_transform", "layers_to_transform");
  if (f.has("base_model_name_or_path")) {
    if (!f.at("base_model_name_or_path").is_string()) throw f.error("base_model_name_or_path", "must be a string");
    out.base_model_name_or_path = f.at("base_model_name_or_path").get<std::string>();
  }

  const std::string prefix = kPeftPrefix;
  for (auto& [name, t] : read_safetensors(weights_path)) {
    if (name.compare(0, prefix.size(), prefix) != 0)
      throw Error(weights_path + ": tensor '" + name + "' does not start with '" + prefix + "' (PEFT's prefix)");
    out.tensors.emplace(name.substr(prefix.size()), std::move(t));
  }
  return out;
}

void load_adapters(const std::string& dir, const NamedTensors& lora_parameters, const LoraConfig& config) {
  PeftAdapter adapter = read_adapters(dir);
  const std::string config_path = path_in(dir, kConfigFile);
  if (adapter.config.rank != config.rank)
    throw Error(config_path + ": field 'r' = " + std::to_string(adapter.config.rank) + " but the model's LoRA rank is " +
                std::to_string(config.rank) + " (set the LoRA rank to match the adapter)");
  if (std::abs(adapter.config.alpha - config.alpha) > 1e-9 * std::max(1.0, std::abs(config.alpha)))
    throw Error(config_path + ": field 'lora_alpha' = " + json(adapter.config.alpha).dump() +
                " but the model's LoRA alpha is " + json(config.alpha).dump() + " (scaling alpha/r would differ)");
  if (as_set(adapter.config.target_modules) != as_set(config.target_modules))
    throw Error(config_path + ": field 'target_modules' = " + list_text(adapter.config.target_modules) +
                " but the model adapts " + list_text(config.target_modules));

  TensorMap targets;
  for (const auto& [name, t] : lora_parameters) targets.emplace(name, t);
  LoadOptions options;
  options.ignore_unexpected.clear();
  options.source = path_in(dir, kWeightsFile) + " (names without '" + std::string(kPeftPrefix) + "')";
  options.hint = "The adapter was trained for a model of another shape: load it into the model it was made for.";
  load_into(targets, adapter.tensors, options);
}

}  // namespace falcon::model
