#pragma once
// Algorithm 2 of the paper (adaptive Best-of-N), as a pure function of the samples drawn so far.
//
// After each sample n >= N_min the current best y* (the best delivered solution among the first
// n samples) is tested with the Beta-Binomial confidence
//
//     Conf(y*) = (alpha0 + n_{y*}) / (alpha0 + beta0 + n),      alpha0 = beta0 = 1 by default,
//
// where n_{y*} counts the samples among the first n that MATCH y*. What "matching" means is the
// caller's choice, expressed as equivalence classes (matching.h): by default two samples match
// when they deliver the same solution (the same lists after repair), so n_{y*} is the number of
// samples that produced exactly the delivered solution. Sampling stops at the first n with
// Conf >= tau, or at n = N_max.
//
// Beyond the paper, `patience` k > 0 adds a second way to stop: at the first n >= N_min whose last k
// samples found nothing strictly better than y* (y* was first drawn at sample n - k or earlier).
// Conf(y*) needs samples that deliver y* itself, which rarely come where objectives are real
// numbers or samples spread (TSP, JSSP: consistency about 0.03); a stall needs no tie, only no
// progress. Measured on TSP-20 and JSSP 6x6 it stops early but lands on fixed N's line of gap
// against samples: where samples stall is no sign of where the model is sure.
//
// Samples come in batched rounds; the rule is still evaluated after EVERY sample (prefix by
// prefix), so the stopping point and the delivered solution are exactly Algorithm 2's for the
// same sample sequence. Samples of the last round beyond the stopping point are discarded
// (counted as drawn, not used).
#include <optional>
#include <string>
#include <vector>

#include "falcon/problems/problem.h"

namespace falcon::scoring {

struct AdaptiveRule {
  int n_min = 8;       // N_min: no decision before this many samples
  int n_max = 64;      // N_max: the budget
  double tau = 0.85;   // confidence threshold
  double alpha0 = 1.0;  // Beta prior (uniform)
  double beta0 = 1.0;
  int patience = 0;     // k: stop after k samples in a row that do not beat y* (0 = off)
};

// One scored sample, as the rule sees it. `match_class`: samples with equal classes match.
struct Draw {
  bool feasible = false;
  double objective = 0.0;
  int match_class = 0;
};

// (alpha0 + matches) / (alpha0 + beta0 + n).
double beta_binomial_confidence(int matches, int n, double alpha0 = 1.0, double beta0 = 1.0);

// Whether a is strictly better than b: feasible beats infeasible, then the objective by `sense`.
bool better_draw(const Draw& a, const Draw& b, problems::Sense sense);

// Index of the best of draws[0, n): feasible beats infeasible, then the objective by `sense`;
// the earliest on ties (and among infeasible draws, the first). -1 when n == 0.
int best_draw(const std::vector<Draw>& draws, int n, problems::Sense sense);

enum class StopReason { kNone, kConfidence, kPatience, kBudget };

struct AdaptiveDecision {
  StopReason stop = StopReason::kNone;  // kNone: not decided yet, draw more
  int samples = 0;       // n at the decision (= draws.size() when undecided)
  int best = -1;         // index of y* among the first `samples` draws
  int matches = 0;       // n_{y*}
  double confidence = 0.0;  // Conf(y*) at `samples` (0 before N_min)
};

// Walks n = 1 .. draws.size() and stops at the first n that Algorithm 2 stops at.
// Throws falcon::Error when the rule is malformed (n_min < 1, n_max < n_min, tau outside (0, 1],
// patience < 0).
AdaptiveDecision adaptive_decision(const std::vector<Draw>& draws, const AdaptiveRule& rule, problems::Sense sense);

void check_rule(const AdaptiveRule& rule);

std::string to_string(StopReason reason);

}  // namespace falcon::scoring
