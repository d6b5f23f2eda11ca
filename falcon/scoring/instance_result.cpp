#include "falcon/scoring/instance_result.h"

#include "falcon/core/error.h"

namespace falcon::scoring {
namespace {

nlohmann::ordered_json opt(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

// Model output is untrusted: a sample decoded without the grammar may hold bytes that are not
// UTF-8, which JSON cannot carry. Those become U+FFFD (the library's own validator does it).
std::string utf8_or_replaced(const std::string& text) {
  const std::string quoted = nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return nlohmann::json::parse(quoted).get<std::string>();
}

// The field `key` of j as a T; a missing or mistyped field names itself.
template <typename T>
T field(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) throw Error(std::string("no field '") + key + "'");
  try {
    return it->template get<T>();
  } catch (const nlohmann::json::exception&) {
    throw Error(std::string("field '") + key + "' is " + it->type_name() + ", not the expected type");
  }
}

std::optional<double> optional_field(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it != j.end() && it->is_null()) return std::nullopt;
  return field<double>(j, key);
}

}  // namespace

void set_objective(InstanceResult& r, problems::Sense sense, bool feasible, double objective,
                   const std::optional<double>& reference) {
  r.feasible = feasible;
  r.reference = reference;
  r.objective.reset();
  r.gap.reset();
  if (!feasible) return;
  r.objective = objective;
  if (reference) r.gap = problems::gap(sense, objective, *reference);
}

nlohmann::ordered_json to_json(const InstanceResult& r) {
  nlohmann::ordered_json j;
  j["row"] = r.row;
  j["instance"] = r.instance;
  j["key"] = r.key;
  j["n"] = r.n;
  j["feasible_raw"] = r.feasible_raw;
  j["feasible"] = r.feasible;
  j["objective"] = opt(r.objective);
  j["reference"] = opt(r.reference);
  j["gap"] = opt(r.gap);
  j["repaired"] = r.repaired;
  j["repair_distance"] = r.repair_distance;
  j["samples"] = r.samples;
  j["samples_drawn"] = r.samples_drawn;
  j["samples_feasible_raw"] = r.samples_feasible_raw;
  j["consistency"] = opt(r.consistency);
  j["confidence"] = opt(r.confidence);
  j["stop"] = r.stop;
  j["seconds"] = {{"total", r.seconds.total},   {"model", r.seconds.model},   {"mask", r.seconds.mask},
                  {"sample", r.seconds.sample}, {"repair", r.seconds.repair}, {"solver", r.seconds.solver}};
  j["solution"] = r.solution;
  j["text"] = utf8_or_replaced(r.text);
  return j;
}

InstanceResult instance_result_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw Error(std::string("a ") + j.type_name() + ", not an object");
  InstanceResult r;
  r.row = field<std::string>(j, "row");
  r.instance = field<std::string>(j, "instance");
  r.key = field<std::uint64_t>(j, "key");
  r.n = field<int>(j, "n");
  r.feasible_raw = field<bool>(j, "feasible_raw");
  r.feasible = field<bool>(j, "feasible");
  r.objective = optional_field(j, "objective");
  r.reference = optional_field(j, "reference");
  r.gap = optional_field(j, "gap");
  r.repaired = field<bool>(j, "repaired");
  r.repair_distance = field<double>(j, "repair_distance");
  r.samples = field<int>(j, "samples");
  r.samples_drawn = field<int>(j, "samples_drawn");
  r.samples_feasible_raw = field<int>(j, "samples_feasible_raw");
  r.consistency = optional_field(j, "consistency");
  r.confidence = optional_field(j, "confidence");
  r.stop = field<std::string>(j, "stop");
  const auto seconds = field<nlohmann::json>(j, "seconds");
  r.seconds = {field<double>(seconds, "total"),  field<double>(seconds, "model"),  field<double>(seconds, "mask"),
               field<double>(seconds, "sample"), field<double>(seconds, "repair"), field<double>(seconds, "solver")};
  r.solution = field<std::string>(j, "solution");
  r.text = field<std::string>(j, "text");
  return r;
}

}  // namespace falcon::scoring
