// Hopcroft's minimisation against the definition: two states share a block exactly when no
// suffix tells them apart (table filling over every pair), on random partial DFAs.
#include "falcon/decoding/dfa_minimise.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "falcon/core/rng.h"

namespace falcon::decoding {
namespace {

struct Dfa {
  std::vector<std::int32_t> trans;  // states x k, -1 = rejected
  std::vector<std::uint8_t> accepting;
  int k = 0;
};

// The pairs some suffix tells apart, by table filling; a missing transition goes to a dead state
// (index n) that accepts nothing.
std::vector<std::vector<bool>> distinguishable(const Dfa& dfa) {
  const int n = static_cast<int>(dfa.accepting.size());
  const auto target = [&](int s, int c) {
    if (s == n) return n;
    const int t = dfa.trans[static_cast<std::size_t>(s) * dfa.k + c];
    return t < 0 ? n : t;
  };
  const auto accepts = [&](int s) { return s < n && dfa.accepting[s] != 0; };
  std::vector<std::vector<bool>> apart(n + 1, std::vector<bool>(n + 1, false));
  for (int s = 0; s <= n; ++s)
    for (int t = 0; t <= n; ++t) apart[s][t] = accepts(s) != accepts(t);
  for (bool changed = true; changed;) {
    changed = false;
    for (int s = 0; s <= n; ++s)
      for (int t = 0; t <= n; ++t)
        for (int c = 0; c < dfa.k && !apart[s][t]; ++c)
          if (apart[target(s, c)][target(t, c)]) apart[s][t] = changed = true;
  }
  return apart;
}

Dfa random_dfa(Rng& rng, int n, int k) {
  Dfa dfa;
  dfa.k = k;
  dfa.accepting.resize(n);
  for (auto& a : dfa.accepting) a = rng.uniform_int(0, 3) == 0 ? 1 : 0;
  dfa.trans.resize(static_cast<std::size_t>(n) * k);
  for (auto& t : dfa.trans) t = rng.uniform_int(0, 4) == 0 ? -1 : static_cast<std::int32_t>(rng.uniform_int(0, n - 1));
  return dfa;
}

TEST(DfaMinimise, BlocksAreExactlyTheClassesOfIndistinguishableStates) {
  Rng rng(17);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + rng.uniform_int(0, 24);
    const int k = 1 + rng.uniform_int(0, 3);
    const Dfa dfa = random_dfa(rng, n, k);
    const std::vector<std::int32_t> block = minimise_dfa(dfa.trans, dfa.accepting, k);
    const auto apart = distinguishable(dfa);
    ASSERT_EQ(static_cast<int>(block.size()), n);
    for (int s = 0; s < n; ++s)
      for (int t = 0; t < n; ++t)
        ASSERT_EQ(block[s] == block[t], !apart[s][t]) << "trial " << trial << ": states " << s << ", " << t;
  }
}

TEST(DfaMinimise, BlocksAreNumberedInTheOrderOfTheirFirstState) {
  Rng rng(5);
  const Dfa dfa = random_dfa(rng, 40, 3);
  const std::vector<std::int32_t> block = minimise_dfa(dfa.trans, dfa.accepting, dfa.k);
  std::int32_t seen = -1;
  for (std::int32_t b : block) {
    ASSERT_LE(b, seen + 1);
    if (b == seen + 1) ++seen;
  }
}

// A cycle of 3,000 states over one byte, accepting every third: three classes. Moore's refinement
// took as many rounds as states on automata of this shape.
TEST(DfaMinimise, ALongCycleFoldsToItsPeriod) {
  const int n = 3000;
  Dfa dfa;
  dfa.k = 1;
  for (int s = 0; s < n; ++s) {
    dfa.trans.push_back((s + 1) % n);
    dfa.accepting.push_back(s % 3 == 0 ? 1 : 0);
  }
  const std::vector<std::int32_t> block = minimise_dfa(dfa.trans, dfa.accepting, dfa.k);
  for (int s = 0; s < n; ++s) EXPECT_EQ(block[s], s % 3) << s;
}

// A chain that accepts only at its end: every state is its own class.
TEST(DfaMinimise, AChainKeepsEveryState) {
  const int n = 2000;
  Dfa dfa;
  dfa.k = 2;
  for (int s = 0; s < n; ++s) {
    dfa.trans.push_back(s + 1 < n ? s + 1 : -1);
    dfa.trans.push_back(-1);
    dfa.accepting.push_back(s + 1 == n ? 1 : 0);
  }
  const std::vector<std::int32_t> block = minimise_dfa(dfa.trans, dfa.accepting, dfa.k);
  for (int s = 0; s < n; ++s) EXPECT_EQ(block[s], s);
}

TEST(DfaMinimise, StatesThatAcceptNothingAreOneBlock) {
  const Dfa dfa{{1, -1, 0, 2, -1, -1}, {0, 0, 0}, 2};
  EXPECT_EQ(minimise_dfa(dfa.trans, dfa.accepting, dfa.k), (std::vector<std::int32_t>{0, 0, 0}));
  EXPECT_TRUE(minimise_dfa({}, {}, 3).empty());
}

}  // namespace
}  // namespace falcon::decoding
