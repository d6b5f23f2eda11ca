#include "falcon/model/adamw_state.h"

#include <map>
#include <set>

#include "falcon/core/error.h"
#include "falcon/model/state_dict.h"

namespace falcon::model {
namespace {

using nlohmann::json;
using torch::optim::AdamWOptions;
using torch::optim::AdamWParamState;

// Parameter name by TensorImpl (the identity the optimizer holds).
std::map<const void*, std::string> names_by_impl(const torch::nn::Module& module) {
  std::map<const void*, std::string> names;
  for (const auto& item : module.named_parameters(true)) names.emplace(item.value().unsafeGetTensorImpl(), item.key());
  return names;
}

std::vector<std::string> group_param_names(const torch::optim::OptimizerParamGroup& group,
                                           const std::map<const void*, std::string>& names, std::size_t g) {
  std::vector<std::string> out;
  for (const auto& p : group.params()) {
    const auto it = names.find(p.unsafeGetTensorImpl());
    if (it == names.end())
      throw Error("optimizer param group " + std::to_string(g) + " holds a tensor of shape " + shape_text(p.sizes()) +
                  " that is not a parameter of the model, so it has no name to be saved under");
    out.push_back(it->second);
  }
  return out;
}

}  // namespace

AdamWStateDict adamw_state_dict(torch::optim::AdamW& optimizer, const torch::nn::Module& module) {
  const auto names = names_by_impl(module);
  AdamWStateDict out;
  json groups = json::array();
  json without_state = json::array();
  for (std::size_t g = 0; g < optimizer.param_groups().size(); ++g) {
    auto& group = optimizer.param_groups()[g];
    const auto& o = static_cast<const AdamWOptions&>(group.options());
    const auto param_names = group_param_names(group, names, g);
    groups.push_back({{"lr", o.lr()},
                      {"betas", {std::get<0>(o.betas()), std::get<1>(o.betas())}},
                      {"eps", o.eps()},
                      {"weight_decay", o.weight_decay()},
                      {"amsgrad", o.amsgrad()},
                      {"params", param_names}});
    for (std::size_t i = 0; i < group.params().size(); ++i) {
      const std::string& name = param_names[i];
      const AdamWParamState* s = torch_shim::adamw_param_state(optimizer, group.params()[i]);
      if (s == nullptr) {
        without_state.push_back(name);
        continue;
      }
      out.tensors.emplace(name + ".exp_avg", s->exp_avg().detach().to(torch::kCPU));
      out.tensors.emplace(name + ".exp_avg_sq", s->exp_avg_sq().detach().to(torch::kCPU));
      if (s->max_exp_avg_sq().defined())
        out.tensors.emplace(name + ".max_exp_avg_sq", s->max_exp_avg_sq().detach().to(torch::kCPU));
      out.tensors.emplace(name + ".step", torch::tensor(static_cast<std::int64_t>(s->step()), torch::kInt64));
    }
  }
  out.groups = {{"optimizer", "AdamW"}, {"param_groups", groups}, {"params_without_state", without_state}};
  return out;
}

namespace {

// Reads a saved AdamW state against the optimizer it is for, checking as it goes; every error
// names the source file and the tensor or group.
class SavedState {
 public:
  SavedState(const AdamWStateDict& state, const std::string& source) : state_(state), source_(source) {}

  Error fail(const std::string& what) const { return Error(source_ + ": optimizer state: " + what); }

  // The header's fields, and the names saved without state (parameters the optimizer never stepped).
  std::set<std::string> check_header(std::size_t optimizer_groups) const {
    const json& j = state_.groups;
    if (!j.is_object() || !j.contains("optimizer") || j["optimizer"] != "AdamW" || !j.contains("param_groups") ||
        !j["param_groups"].is_array() || !j.contains("params_without_state") || !j["params_without_state"].is_array())
      throw fail("the settings are not an AdamW state written by falcon (fields optimizer, param_groups, "
                 "params_without_state)");
    if (j["param_groups"].size() != optimizer_groups)
      throw fail("has " + std::to_string(j["param_groups"].size()) + " param groups, the optimizer " +
                 std::to_string(optimizer_groups));
    std::set<std::string> without_state;
    for (const auto& n : j["params_without_state"]) {
      if (!n.is_string()) throw fail("params_without_state must list names");
      without_state.insert(n.get<std::string>());
    }
    return without_state;
  }

  // Group g's settings, after checking that it names the optimizer's parameters in its order.
  AdamWOptions group_options(std::size_t g, const std::vector<std::string>& current) const {
    const json& jg = state_.groups["param_groups"][g];
    const std::string where = "param group " + std::to_string(g);
    std::vector<std::string> saved;
    AdamWOptions o(0.0);
    try {
      saved = jg.at("params").get<std::vector<std::string>>();
      o.lr(jg.at("lr").get<double>());
      o.betas({jg.at("betas").at(0).get<double>(), jg.at("betas").at(1).get<double>()});
      o.eps(jg.at("eps").get<double>());
      o.weight_decay(jg.at("weight_decay").get<double>());
      o.amsgrad(jg.at("amsgrad").get<bool>());
    } catch (const json::exception& e) {
      throw fail(where + ": malformed settings (" + e.what() + ")");
    }
    if (saved != current) {
      std::size_t i = 0;
      while (i < saved.size() && i < current.size() && saved[i] == current[i]) ++i;
      throw fail(where + " differs from the optimizer's at position " + std::to_string(i) + ": saved '" +
                 (i < saved.size() ? saved[i] : "(end)") + "', optimizer '" + (i < current.size() ? current[i] : "(end)") +
                 "' (the model's trainable parameters changed: same LoRA / freezing settings as when saved?)");
    }
    return o;
  }

  // The saved state of parameter `name`, on its device.
  std::unique_ptr<AdamWParamState> param_state(const std::string& name, const torch::Tensor& param, bool amsgrad) {
    auto s = std::make_unique<AdamWParamState>();
    s->exp_avg(take(name + ".exp_avg", param, true));
    s->exp_avg_sq(take(name + ".exp_avg_sq", param, true));
    if (amsgrad) s->max_exp_avg_sq(take(name + ".max_exp_avg_sq", param, true));
    const torch::Tensor step = take(name + ".step", param, false);
    if (step.numel() != 1 || step.scalar_type() != torch::kInt64 || step.item<std::int64_t>() < 0)
      throw fail("tensor '" + name + ".step' must be one non-negative int64");
    s->step(step.item<std::int64_t>());
    return s;
  }

  // After every parameter: a saved tensor that none of them took is an error.
  void check_all_used() const {
    for (const auto& [key, _] : state_.tensors)
      if (!used_.count(key)) throw fail("tensor '" + key + "' belongs to no parameter of the optimizer");
  }

 private:
  torch::Tensor take(const std::string& key, const torch::Tensor& param, bool floating) {
    const auto it = state_.tensors.find(key);
    if (it == state_.tensors.end()) throw fail("tensor '" + key + "' is missing");
    const torch::Tensor& t = it->second;
    if (floating && t.sizes() != param.sizes())
      throw fail("tensor '" + key + "' has shape " + shape_text(t.sizes()) + ", the parameter " +
                 shape_text(param.sizes()));
    if (floating && t.scalar_type() != param.scalar_type())
      throw fail("tensor '" + key + "' is " + std::string(c10::toString(t.scalar_type())) + ", the parameter " +
                 c10::toString(param.scalar_type()));
    used_.insert(key);
    return t.to(param.device(), /*non_blocking=*/false, /*copy=*/true);
  }

  const AdamWStateDict& state_;
  const std::string& source_;
  std::set<std::string> used_;
};

}  // namespace

void load_adamw_state_dict(torch::optim::AdamW& optimizer, const torch::nn::Module& module,
                           const AdamWStateDict& state, const std::string& source) {
  const auto names = names_by_impl(module);
  SavedState saved(state, source);
  const auto without_state = saved.check_header(optimizer.param_groups().size());
  // Check everything, then install: a failed load leaves the optimizer as it was.
  struct Pending {
    torch::Tensor param;
    std::unique_ptr<AdamWParamState> state;  // null: the parameter has no state
  };
  std::vector<Pending> pending;
  std::vector<AdamWOptions> options;
  for (std::size_t g = 0; g < optimizer.param_groups().size(); ++g) {
    auto& group = optimizer.param_groups()[g];
    const auto current = group_param_names(group, names, g);
    options.push_back(saved.group_options(g, current));
    for (std::size_t i = 0; i < current.size(); ++i) {
      const torch::Tensor& p = group.params()[i];
      pending.push_back({p, without_state.count(current[i]) ? nullptr
                                                             : saved.param_state(current[i], p, options.back().amsgrad())});
    }
  }
  saved.check_all_used();

  for (std::size_t g = 0; g < options.size(); ++g)
    static_cast<AdamWOptions&>(optimizer.param_groups()[g].options()) = options[g];
  for (auto& [param, s] : pending) {
    if (s) {
      torch_shim::set_adamw_param_state(optimizer, param, std::move(s));
    } else {
      auto& map = optimizer.state();
      map.erase(torch_shim::optimizer_state_key(map, param));
    }
  }
}

}  // namespace falcon::model
