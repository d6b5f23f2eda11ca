#pragma once
// Solution consistency, Definition 3.5: over K >= 2 samples,
//
//     Cons = 1/(K(K-1)) * sum_i sum_{j != i} 1[y_i = y_j],
//
// the fraction of ordered pairs of samples that are identical. "Identical" is the same relation
// the adaptive rule matches with (matching.h). Computed from class sizes: sum_c m_c (m_c - 1).
// Lemma 3.7: its expectation is sum_y p(y)^2 = exp(-H_2(p)).
#include <optional>
#include <vector>

namespace falcon::scoring {

// Samples' match classes (equal = identical samples); nullopt for K < 2 (undefined).
std::optional<double> consistency(const std::vector<int>& match_classes);

}  // namespace falcon::scoring
