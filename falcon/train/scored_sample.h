#pragma once
// One sample of a group (K samples of one instance) as the preference and policy-gradient
// algorithms read it: feasible or not, and its objective (bopo.h's pairs, grpo.h's rewards).

namespace falcon::train {

struct ScoredSample {
  bool feasible = false;  // feasible as sampled (or after repair when repair is in the loop)
  double objective = 0.0; // meaningful when feasible
};

}  // namespace falcon::train
