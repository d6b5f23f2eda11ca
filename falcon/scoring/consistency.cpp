#include "falcon/scoring/consistency.h"

#include <map>

namespace falcon::scoring {

std::optional<double> consistency(const std::vector<int>& match_classes) {
  const auto k = static_cast<double>(match_classes.size());
  if (match_classes.size() < 2) return std::nullopt;
  std::map<int, double> sizes;
  for (int c : match_classes) sizes[c] += 1.0;
  double pairs = 0.0;  // ordered pairs (i, j), i != j, in the same class
  for (const auto& [c, m] : sizes) pairs += m * (m - 1.0);
  return pairs / (k * (k - 1.0));
}

}  // namespace falcon::scoring
