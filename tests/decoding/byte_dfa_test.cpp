// The index terminal and the DFA construction: exact ranges, minimality, trimming.
#include "falcon/decoding/byte_dfa.h"

#include <gtest/gtest.h>

#include <string>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"

namespace falcon::decoding {
namespace {

bool in_range_decimal(const std::string& s, IndexRange r) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  if (s.size() > 1 && s[0] == '0') return false;
  const long long v = std::stoll(s);
  return v >= r.first && v <= r.last;
}

TEST(IndexTerminal, AcceptsExactlyTheDecimalsOfTheRange) {
  const Grammar g = Grammar::parse("root ::= <index>", "t");
  for (IndexRange r : {IndexRange{0, 0}, IndexRange{0, 9}, IndexRange{1, 10}, IndexRange{0, 101}, IndexRange{5, 102},
                       IndexRange{1, 100}, IndexRange{37, 4021}, IndexRange{0, 999}, IndexRange{1000, 1000},
                       IndexRange{99, 101}, IndexRange{7, 7}}) {
    const ByteDfa dfa = ByteDfa::compile(g, r);
    // Every digit string of length <= 5 (and a few with other bytes).
    std::string s;
    for (int len = 0; len <= 5; ++len) {
      long long count = 1;
      for (int i = 0; i < len; ++i) count *= 10;
      for (long long k = 0; k < count; ++k) {
        s.assign(len, '0');
        long long x = k;
        for (int i = len - 1; i >= 0; --i, x /= 10) s[i] = static_cast<char>('0' + x % 10);
        ASSERT_EQ(dfa.accepts(s), in_range_decimal(s, r)) << "[" << r.first << ", " << r.last << "] '" << s << "'";
      }
    }
    EXPECT_FALSE(dfa.accepts(" 1"));
    EXPECT_FALSE(dfa.accepts("1 "));
    EXPECT_FALSE(dfa.accepts("+1"));
  }
}

TEST(IndexTerminal, OneHundredTwoNeedsItsTerminatorAndRange) {
  const Grammar g = Grammar::parse("root ::= \"[\" <index> (\", \" <index>)* \"]\"", "t");
  const ByteDfa small = ByteDfa::compile(g, {0, 101});  // n = 102
  EXPECT_EQ(small.walk(small.start(), "[102"), ByteDfa::kReject);
  EXPECT_NE(small.walk(small.start(), "[10"), ByteDfa::kReject);
  EXPECT_TRUE(small.accepts("[101, 10, 0]"));
  EXPECT_FALSE(small.accepts("[01]"));
  EXPECT_EQ(small.walk(small.start(), "[0"), small.walk(small.start(), "[0"));
  EXPECT_EQ(small.walk(small.start(), "[00"), ByteDfa::kReject);
  const ByteDfa big = ByteDfa::compile(g, {0, 102});
  EXPECT_TRUE(big.accepts("[102]"));
  EXPECT_EQ(big.walk(big.start(), "[1020"), ByteDfa::kReject);
}

TEST(ByteDfa, IsMinimalAndTrimmed) {
  // a* b over a language where many NFA paths coincide: the minimal DFA has 2 states.
  const ByteDfa dfa = ByteDfa::compile(Grammar::parse("root ::= (\"a\" | \"a\" \"a\")* \"b\"", "t"), {0, 0});
  EXPECT_EQ(dfa.num_states(), 2);
  // Dead ends are cut: "c" can never be completed, so it is rejected at once.
  const ByteDfa trimmed = ByteDfa::compile(Grammar::parse("root ::= \"ab\" | \"c\" dead\ndead ::= \"x\" dead", "t"), {0, 0});
  EXPECT_EQ(trimmed.walk(trimmed.start(), "c"), ByteDfa::kReject);
  EXPECT_TRUE(trimmed.accepts("ab"));
  // Every state can reach acceptance.
  const ByteDfa list = ByteDfa::compile(Grammar::parse("root ::= \"[\" <index> (\", \" <index>)* \"]\"", "t"), {3, 250});
  for (int s = 0; s < list.num_states(); ++s) {
    std::vector<bool> seen(list.num_states(), false);
    std::vector<int> stack{s};
    bool reaches = false;
    while (!stack.empty() && !reaches) {
      const int q = stack.back();
      stack.pop_back();
      if (seen[q]) continue;
      seen[q] = true;
      reaches = list.accepting(q);
      for (int b = 0; b < 256; ++b)
        if (list.step(q, static_cast<unsigned char>(b)) >= 0) stack.push_back(list.step(q, static_cast<unsigned char>(b)));
    }
    EXPECT_TRUE(reaches) << "state " << s;
  }
}

TEST(ByteDfa, SizeLimitIsAClearError) {
  CompileLimits limits;
  limits.max_dfa_states = 5;
  try {
    ByteDfa::compile(Grammar::parse("root ::= \"abcdefghij\"", "small.bnf"), {0, 0}, limits);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "small.bnf: the automaton exceeds 5 DFA states; simplify the grammar or raise CompileLimits::max_dfa_states");
  }
}

}  // namespace
}  // namespace falcon::decoding
