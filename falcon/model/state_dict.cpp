#include "falcon/model/state_dict.h"

#include "falcon/core/error.h"

namespace falcon::model {
namespace {

constexpr std::size_t kListedPerKind = 5;

bool any_match(const std::vector<std::string>& patterns, const std::string& name) {
  for (const auto& p : patterns)
    if (glob_match(p, name)) return true;
  return false;
}

// "  missing: a [2, 3]; b [4] (and 7 more)"
void append_list(std::string& out, const std::string& kind, const std::vector<std::string>& items) {
  if (items.empty()) return;
  out += "\n  " + kind + " (" + std::to_string(items.size()) + "): ";
  for (std::size_t i = 0; i < items.size() && i < kListedPerKind; ++i) out += (i ? "; " : "") + items[i];
  if (items.size() > kListedPerKind) out += "; ... and " + std::to_string(items.size() - kListedPerKind) + " more";
}

}  // namespace

bool glob_match(const std::string& pattern, const std::string& name) {
  // Iterative '*' matching with one backtrack point: linear in practice, no recursion.
  std::size_t p = 0, n = 0, star = std::string::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::string shape_text(torch::IntArrayRef shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

TensorMap state_dict(const torch::nn::Module& module) {
  TensorMap out;
  for (const auto& item : module.named_parameters(/*recurse=*/true)) out.emplace(item.key(), item.value().detach());
  for (const auto& item : module.named_buffers(/*recurse=*/true)) out.emplace(item.key(), item.value().detach());
  return out;
}

LoadReport check_tensors(const TensorMap& expected, const TensorMap& tensors, const LoadOptions& options) {
  LoadReport report;
  std::vector<std::string> missing, unexpected, mismatched;
  for (const auto& [name, target] : expected) {
    const auto it = tensors.find(name);
    if (it == tensors.end()) {
      if (any_match(options.allow_missing, name)) report.missing.push_back(name);
      else missing.push_back(name + " " + shape_text(target.sizes()));
      continue;
    }
    const torch::Tensor& source = it->second;
    if (!source.defined()) {
      mismatched.push_back(name + ": undefined tensor");
    } else if (source.sizes() != target.sizes()) {
      mismatched.push_back(name + ": expected " + shape_text(target.sizes()) + ", got " + shape_text(source.sizes()));
    } else if (source.scalar_type() != target.scalar_type() &&
               !(torch::isFloatingType(source.scalar_type()) && torch::isFloatingType(target.scalar_type()))) {
      mismatched.push_back(name + ": dtype " + std::string(c10::toString(source.scalar_type())) + " cannot become " +
                           c10::toString(target.scalar_type()));
    }
  }
  for (const auto& [name, source] : tensors) {
    if (expected.count(name)) continue;
    if (any_match(options.ignore_unexpected, name)) report.ignored.push_back(name);
    else unexpected.push_back(name + (source.defined() ? " " + shape_text(source.sizes()) : std::string()));
  }

  if (!missing.empty() || !unexpected.empty() || !mismatched.empty()) {
    std::string msg = options.source + ": does not match the model:";
    append_list(msg, "missing from the file", missing);
    append_list(msg, "not in the model", unexpected);
    append_list(msg, "shape or dtype mismatch", mismatched);
    msg += "\n  " + options.hint;
    throw Error(msg);
  }
  return report;
}

LoadReport load_into(const TensorMap& targets, const TensorMap& tensors, const LoadOptions& options) {
  LoadReport report = check_tensors(targets, tensors, options);
  torch::NoGradGuard no_grad;
  for (const auto& [name, target] : targets) {
    const auto it = tensors.find(name);
    if (it != tensors.end()) target.copy_(it->second);  // converts dtype and device
  }
  return report;
}

LoadReport load_state_dict(torch::nn::Module& module, const TensorMap& tensors, const LoadOptions& options) {
  // The module's own tensors (not detached views: copy_ must write into them as they are).
  TensorMap targets;
  for (const auto& item : module.named_parameters(true)) targets.emplace(item.key(), item.value());
  for (const auto& item : module.named_buffers(true)) targets.emplace(item.key(), item.value());
  return load_into(targets, tensors, options);
}

}  // namespace falcon::model
