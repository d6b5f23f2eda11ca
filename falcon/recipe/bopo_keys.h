#pragma once
// BOPO's keys (Definition 3.6 and its documented options; the paper's reading is the default).
// Its pairs, batches and loss: train/bopo.h.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "falcon/core/config.h"

namespace falcon::recipe {

struct StageSpec;

struct BopoKeys {
  double beta = 0.1;
  std::string reference = "none";  // none | adapters (DPO-style margin against adapters disabled)
  bool length_normalise = false;   // log pi per token instead of per sequence
  double sft_weight = 0.0;         // + sft_weight * NLL(y*) per token
  bool anchor_on_label = false;    // use the reference label as y* when it beats every sample
  bool infeasible_losers = false;  // beyond the paper: infeasible samples are losers too (train/bopo.h)
  // stages[i].problems.<p>.infeasible_losers: a model of several problems gives a problem its own
  // value, as that problem's own recipe sets it; the rest take the stage's.
  std::vector<std::pair<std::string, bool>> infeasible_losers_by_problem;
  bool infeasible_losers_for(std::string_view problem) const;
};

// stages[i].{beta, reference, length_normalise, sft_weight, anchor_on_label, infeasible_losers}
// and stages[i].problems.<p>.infeasible_losers (`base` is "stages[i]."), given the common keys.
BopoKeys read_bopo_keys(Config& config, const std::string& base, const StageSpec& stage);

}  // namespace falcon::recipe
