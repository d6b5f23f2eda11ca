#pragma once
// Small list operations the repair operators share: keep-first de-duplication, the missing
// indices, and the insert/delete distance that measures how much a repair changed; and the
// relabellings that symmetric copies (data augmentation) are made of.
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/problems/solution.h"

namespace falcon::problems {

struct Deduplicated {
  std::vector<int> kept;  // first occurrence of each valid index, in input order
  int invalid = 0;        // entries outside [lo, hi]
  int duplicates = 0;     // repeated valid entries
};

// Keeps the first occurrence of every index in [lo, hi]; counts what it dropped.
Deduplicated deduplicate(const std::vector<int>& items, int lo, int hi);

// Indices of [lo, hi] absent from `present`, ascending.
std::vector<int> missing_indices(const std::vector<int>& present, int lo, int hi);

// Deletions + insertions that turn `a` into `b`: |a| + |b| - 2 LCS(a, b). O(|a| |b|) time,
// O(|b|) memory.
int insert_delete_distance(const std::vector<int>& a, const std::vector<int>& b);

// All entries of all lists, in order.
std::vector<int> flatten(const std::vector<std::vector<int>>& lists);

// A uniformly random permutation of 0..n-1 (index i becomes relabel[i]) that leaves the ids in
// `fixed` where they are (a depot, an OP route's start and end).
std::vector<int> random_relabelling(int n, const std::vector<int>& fixed, Rng& rng);
// `solution` with every id in [0, relabel.size()) renamed; other ids (invalid ones) kept as they are.
Solution relabelled(const Solution& solution, const std::vector<int>& relabel);

}  // namespace falcon::problems
