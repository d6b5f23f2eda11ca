#include "falcon/problems/semantic_constraint.h"

#include <algorithm>

namespace falcon::problems {

bool SemanticConstraint::any_legal_in(long long lo, long long hi) const {
  for (long long v = std::max<long long>(lo, range_.first); v <= std::min<long long>(hi, range_.last); ++v)
    if (legal(v)) return true;
  return false;
}

}  // namespace falcon::problems
