#pragma once
// One instance's outcome under one row (method): a JSON line of falcon_eval's instances.jsonl.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "falcon/problems/problem.h"

namespace falcon::scoring {

// Wall time of one instance, seconds. Batched work (the forward passes and masks of a generate
// call over several instances) is shared equally among the instances in the call, so the
// instances' totals add up to the row's wall time.
struct TimeSplit {
  double total = 0;
  double model = 0;   // forward passes (prefill + decode)
  double mask = 0;    // grammar / semantic mask steps
  double sample = 0;  // temperature, top-k/p, drawing
  double repair = 0;  // the repair operator, this instance's samples only
  double solver = 0;  // solver rows: the solver's time
};

struct InstanceResult {
  std::string row;
  std::string instance;
  std::uint64_t key = 0;
  int n = 0;                      // instance size
  bool feasible_raw = false;      // the delivered sample BEFORE repair (grammar + constraints, no help)
  bool feasible = false;          // the delivered solution (after repair when repair is on)
  std::optional<double> objective;  // of the delivered solution, when feasible
  std::optional<double> reference;  // f*
  std::optional<double> gap;        // (f - f*)/|f*| (min) or (f* - f)/|f*| (max); when feasible and f* known
  bool repaired = false;          // repair changed the delivered sample
  double repair_distance = 0;     // d(R(x), x) of the delivered sample
  int samples = 0;                // samples the decision used (Algorithm 2's n); 1 for greedy; 0 for solvers
  int samples_drawn = 0;          // samples generated (>= samples: a round may overshoot the stop)
  int samples_feasible_raw = 0;   // of the `samples` used, how many were feasible before repair
  std::optional<double> consistency;  // Definition 3.5 over the `samples` used (K >= 2)
  std::optional<double> confidence;   // adaptive: Conf(y*) at the stop
  std::string stop;               // adaptive: confidence | patience | budget; else ""
  TimeSplit seconds;
  std::string solution;           // the delivered solution in the grammar's text
  // Model rows: the delivered sample's text as the model wrote it, before parsing and repair ("" for
  // solver rows). `solution` is written anew from the parsed solution, so only this shows what the
  // model itself wrote beyond the indices: the notes of the compact_echo style, its objective.
  std::string text;
  // The delivered sample as the model wrote it, when repair changed it. Not in instances.jsonl:
  // the picture (solution_picture.h) marks what repair changed.
  std::optional<problems::Solution> before_repair;
};

nlohmann::ordered_json to_json(const InstanceResult& r);

// A line of instances.jsonl read back (falcon_eval --resume). Everything but `before_repair`, which
// the line does not carry, round-trips exactly. Throws falcon::Error naming the first missing or
// mistyped field.
InstanceResult instance_result_from_json(const nlohmann::json& j);

// Sets objective (when feasible), reference and gap (when both are known) of a delivered solution.
void set_objective(InstanceResult& r, problems::Sense sense, bool feasible, double objective,
                   const std::optional<double>& reference);

}  // namespace falcon::scoring
