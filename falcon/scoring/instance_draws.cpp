#include "falcon/scoring/instance_draws.h"

#include <algorithm>

#include "falcon/core/error.h"
#include "falcon/scoring/consistency.h"

namespace falcon::scoring {

void InstanceDraws::add(const SampleOutcome& outcome, std::string text) {
  const int cls = classes.add(outcome);
  match_classes.push_back(cls);
  draws.push_back({outcome.feasible, outcome.objective, cls});
  outcomes.push_back(outcome);
  texts.push_back(std::move(text));
}

void InstanceDraws::settle(const RowSpec& row, int drawn, problems::Sense sense) {
  if (row.kind == MethodKind::kAdaptive) {
    decision = adaptive_decision(draws, row.rule, sense);
    done = decision.stop != StopReason::kNone;
  } else {
    done = drawn >= row.budget();
  }
}

int round_samples(const RowSpec& row, int drawn) {
  const int left = row.budget() - drawn;
  switch (row.kind) {
    case MethodKind::kGreedy: return 1;
    case MethodKind::kFixed: return row.round_size > 0 ? std::min(row.round_size, left) : left;
    case MethodKind::kAdaptive: return std::min(drawn == 0 ? row.rule.n_min : row.round_size, left);
    case MethodKind::kSolver: break;
  }
  throw Error("row '" + row.name + "': a solver row draws no samples");
}

InstanceResult deliver(const EvalInstance& e, const RowSpec& row, const InstanceDraws& d) {
  const auto& problem = *e.problem;
  const int used = row.kind == MethodKind::kAdaptive ? d.decision.samples : static_cast<int>(d.draws.size());
  const int best = row.kind == MethodKind::kAdaptive ? d.decision.best : best_draw(d.draws, used, problem.sense());
  bool greedy_wins = false;
  if (d.greedy) {
    const Draw greedy{d.greedy->feasible, d.greedy->objective, -1};
    greedy_wins = better_draw(greedy, d.draws.at(best), problem.sense());
  }
  const SampleOutcome& delivered = greedy_wins ? *d.greedy : d.outcomes.at(best);
  InstanceResult r;
  r.row = row.name;
  r.instance = e.name;
  r.key = e.key;
  r.n = e.instance->size();
  r.feasible_raw = delivered.feasible_raw;
  set_objective(r, problem.sense(), delivered.feasible, delivered.objective, e.reference);
  r.repaired = delivered.repaired;
  r.repair_distance = delivered.repair_distance;
  r.before_repair = delivered.before_repair;
  r.samples = used;
  r.samples_drawn = static_cast<int>(d.draws.size());
  for (int k = 0; k < used; ++k) r.samples_feasible_raw += d.outcomes[k].feasible_raw;
  r.consistency = consistency(std::vector<int>(d.match_classes.begin(), d.match_classes.begin() + used));
  if (row.kind == MethodKind::kAdaptive) {
    r.confidence = d.decision.confidence;
    r.stop = to_string(d.decision.stop);
  }
  r.seconds = d.seconds;
  r.solution = problem.format(*e.instance, delivered.solution);
  r.text = greedy_wins ? d.greedy_text : d.texts.at(best);
  return r;
}

}  // namespace falcon::scoring
