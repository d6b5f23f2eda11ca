#include "falcon/scoring/adaptive.h"

#include <map>
#include <string>

#include "falcon/core/error.h"

namespace falcon::scoring {

double beta_binomial_confidence(int matches, int n, double alpha0, double beta0) {
  return (alpha0 + matches) / (alpha0 + beta0 + n);
}

bool better_draw(const Draw& a, const Draw& b, problems::Sense sense) {
  if (a.feasible != b.feasible) return a.feasible;
  if (!a.feasible) return false;
  return sense == problems::Sense::kMinimize ? a.objective < b.objective : a.objective > b.objective;
}

int best_draw(const std::vector<Draw>& draws, int n, problems::Sense sense) {
  int best = -1;
  for (int i = 0; i < n && i < static_cast<int>(draws.size()); ++i)
    if (best < 0 || better_draw(draws[i], draws[best], sense)) best = i;
  return best;
}

void check_rule(const AdaptiveRule& rule) {
  if (rule.n_min < 1) throw Error("adaptive rule: n_min must be at least 1");
  if (rule.n_max < rule.n_min) throw Error("adaptive rule: n_max must be >= n_min");
  if (!(rule.tau > 0 && rule.tau <= 1)) throw Error("adaptive rule: tau must be in (0, 1]");
  if (!(rule.alpha0 > 0 && rule.beta0 > 0)) throw Error("adaptive rule: alpha0 and beta0 must be positive");
  if (rule.patience < 0) throw Error("adaptive rule: patience must be >= 0 (0 = off)");
}

AdaptiveDecision adaptive_decision(const std::vector<Draw>& draws, const AdaptiveRule& rule, problems::Sense sense) {
  check_rule(rule);
  AdaptiveDecision d;
  std::map<int, int> class_count;  // match class -> samples so far
  for (int i = 0; i < static_cast<int>(draws.size()) && i < rule.n_max; ++i) {
    ++class_count[draws[i].match_class];
    if (d.best < 0 || better_draw(draws[i], draws[d.best], sense)) d.best = i;
    d.samples = i + 1;
    d.matches = class_count[draws[d.best].match_class];
    if (d.samples < rule.n_min) continue;
    d.confidence = beta_binomial_confidence(d.matches, d.samples, rule.alpha0, rule.beta0);
    if (d.confidence >= rule.tau) {
      d.stop = StopReason::kConfidence;
      return d;
    }
    if (rule.patience > 0 && d.samples - (d.best + 1) >= rule.patience) {  // no progress for k samples
      d.stop = StopReason::kPatience;
      return d;
    }
    if (d.samples == rule.n_max) {
      d.stop = StopReason::kBudget;
      return d;
    }
  }
  return d;
}

std::string to_string(StopReason reason) {
  switch (reason) {
    case StopReason::kNone: return "none";
    case StopReason::kConfidence: return "confidence";
    case StopReason::kPatience: return "patience";
    case StopReason::kBudget: return "budget";
  }
  return "?";
}

}  // namespace falcon::scoring
