#include "falcon/eval/instance_result.h"

namespace falcon::eval {
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

}  // namespace falcon::eval
