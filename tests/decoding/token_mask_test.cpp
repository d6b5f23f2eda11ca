// The token automaton against brute force: at every state that random walks reach, each
// token's mask bit and next state equal walking its bytes through the byte DFA; for the
// byte-level, a synthetic multi-byte and the trained SentencePiece vocabulary.
#include "falcon/decoding/token_automaton.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "falcon/core/error.h"
#include "falcon/decoding/automaton_cache.h"
#include "falcon/decoding/builtin_grammars.h"
#include "falcon/decoding/grammar_state.h"
#include "falcon/problems/registry.h"
#include "falcon/formats/text_style.h"
#include "test_util.h"

namespace falcon::decoding {
namespace {

using testing::sample_uniform;
using testing::trained_vocabulary;

// Brute force at one state: special / empty tokens never, EOS exactly when accepting, any
// other token iff its bytes stay inside the (trimmed) DFA, and then to that DFA state.
void expect_brute_force_mask(const TokenAutomaton& a, int state, const std::string& context) {
  const Vocabulary& v = a.vocabulary();
  const TokenMask mask = a.mask(state);
  ASSERT_EQ(mask.vocab_size, v.size());
  for (int id = 0; id < v.size(); ++id) {
    int expected_next = -1;
    if (state == a.finished_state()) {
      expected_next = id == v.eos_id() ? state : -1;
    } else if (id == v.eos_id()) {
      expected_next = a.byte_dfa().accepting(state) ? a.finished_state() : -1;
    } else if (!v.is_special(id) && !v.bytes(id).empty()) {
      expected_next = a.byte_dfa().walk(state, v.bytes(id));
    }
    ASSERT_EQ(mask.test(id), expected_next >= 0) << context << " state " << state << " token " << id << " '"
                                                 << v.bytes(id) << "'";
    ASSERT_EQ(a.next(state, id), expected_next) << context << " token " << id;
  }
  for (int id = v.size(); id < mask.num_words * 64; ++id) ASSERT_FALSE(mask.test(id)) << "padding bit " << id;
}

// Random walks from the start to EOS, checking every state on the way.
void check_random_walks(const TokenAutomaton& a, int walks, std::uint64_t seed, const std::string& context) {
  Rng rng(seed);
  std::set<int> checked;
  for (int w = 0; w < walks; ++w) {
    int state = a.start();
    for (int step = 0; step < 2000 && state != a.finished_state(); ++step) {
      if (checked.insert(state).second) expect_brute_force_mask(a, state, context);
      if (::testing::Test::HasFatalFailure()) return;
      const int token = sample_uniform(a.mask(state), rng);
      state = a.next(state, token);
      ASSERT_GE(state, 0);
    }
  }
  expect_brute_force_mask(a, a.finished_state(), context);
  EXPECT_GT(checked.size(), 10u) << context;
}

// Whole pieces for IDs and numbers, as a whole_ids tokenizer has, beside single bytes.
Vocabulary compact_vocabulary() {
  std::vector<std::string> pieces{"", "", "Route: [", ", ", "], Objective: ", ".", "#"};
  for (int i = 0; i < 120; ++i) pieces.push_back(std::to_string(i)), pieces.push_back("#" + std::to_string(i));
  for (int b = 0; b < 256; ++b) pieces.push_back(std::string(1, static_cast<char>(b)));
  std::vector<bool> special(pieces.size(), false);
  special[0] = special[1] = true;  // pad, eos
  return Vocabulary(pieces, special, /*eos_id=*/1);
}

TEST(TokenMask, EqualsBruteForceForEveryProblemAndVocabulary) {
  const std::vector<std::pair<std::string, Vocabulary>> vocabularies = {
      {"bytes", Vocabulary::byte_level()},
      {"synthetic", Vocabulary::synthetic(3000, 1)},
      {"trained", trained_vocabulary()}};
  for (const auto& [vname, vocabulary] : vocabularies)
    for (const std::string problem : {"tsp", "tsp_compact", "op", "cvrp", "cvrp_compact", "cvrp_echo", "mis", "mis_compact", "mis_echo", "mvc", "pfsp", "jssp"})
      for (IndexRange range : {IndexRange{1, 5}, IndexRange{0, 101}, IndexRange{1, 102}, IndexRange{0, 1234}}) {
        const auto a = TokenAutomaton::build(ByteDfa::compile(builtin_grammar(problem), range), vocabulary);
        check_random_walks(*a, 20, 11, vname + "/" + problem + "/" + std::to_string(range.last));
        if (HasFatalFailure()) return;
      }
}

TEST(TokenMask, PrefixRecogniserAgreesWithGrammarSpec) {
  const problems::GrammarSpec tsp{"Route", false, false, 0, 101};
  EXPECT_TRUE(testing::viable_prefix(tsp, ""));
  EXPECT_TRUE(testing::viable_prefix(tsp, "Route: [10"));
  EXPECT_FALSE(testing::viable_prefix(tsp, "Route: [102"));
  EXPECT_FALSE(testing::viable_prefix(tsp, "Route: [01"));
  EXPECT_FALSE(testing::viable_prefix(tsp, "Route: []"));
  EXPECT_TRUE(testing::viable_prefix(tsp, "Route: [1, 2], Objective: 3"));
  EXPECT_FALSE(testing::viable_prefix(tsp, "Route: [1, 2], Objective: 3.5x"));
  const problems::GrammarSpec cvrp{"Routes", true, false, 1, 20};
  EXPECT_TRUE(testing::viable_prefix(cvrp, "Routes: [[1], ["));
  EXPECT_FALSE(testing::viable_prefix(cvrp, "Routes: [[1], []"));
  EXPECT_FALSE(testing::viable_prefix(cvrp, "Routes: [[0"));
  const problems::GrammarSpec set{"Set", false, true, 0, 9};
  EXPECT_TRUE(testing::viable_prefix(set, "Set: []"));
}

// The mask at each state of random walks against the independent prefix recogniser: token t
// is allowed iff text + bytes(t) can still become a sentence; EOS iff the text is one. "tsp#" is
// TSP in the compact text style (IDs written "#k").
TEST(TokenMask, EqualsThePrefixRecogniserOfGrammarSpec) {
  for (const Vocabulary& vocabulary : {trained_vocabulary(), Vocabulary::byte_level(), compact_vocabulary()}) {
    for (const std::string name : {"tsp", "tsp#", "op", "cvrp", "mis", "pfsp", "jssp"}) {
      const std::string problem = name == "tsp#" ? "tsp" : name;
      for (int n : {5, 102}) {
        const auto& p = formats::with_text_style(problems::problem_by_name(problem),
                                                  name == "tsp#" ? formats::TextStyle{"compact", 2} : formats::TextStyle{});
        const problems::GrammarSpec spec = p.grammar(*testing::make_instance(problem, n));
        const GrammarState initial = make_grammar_state(p, testing::make_instance(problem, n), vocabulary);
        Rng rng(static_cast<std::uint64_t>(n));
        for (int walk = 0; walk < 3; ++walk) {
          GrammarState state = initial;
          std::string text;
          for (int step = 0; step < 60 && !state.is_finished(); ++step) {
            const TokenMask mask = state.mask();
            for (int id = 0; id < vocabulary.size(); ++id) {
              const bool expected = id == vocabulary.eos_id() ? spec.accepts(text)
                                    : vocabulary.is_special(id) || vocabulary.bytes(id).empty()
                                        ? false
                                        : testing::viable_prefix(spec, text + vocabulary.bytes(id));
              ASSERT_EQ(mask.test(id), expected) << problem << " n=" << n << " after '" << text << "' token '"
                                                 << vocabulary.bytes(id) << "'";
            }
            const int token = sample_uniform(mask, rng);
            ASSERT_TRUE(state.accept(token));
            text += vocabulary.bytes(token);
          }
        }
      }
    }
  }
}

TEST(TokenMask, MultiByteTokensAreExact) {
  // Tokens that span an index and its separator, split a number, or close and open brackets.
  const std::vector<std::string> pieces{"", "", "Route: [", "Routes: [[", "1", "0", "2", "02", "10", "102", " 13,",
                                        "13, ", "], ", "]", ", ", "5], [", "], Objective: ", "3", ".", "5", "3.5"};
  std::vector<bool> special(pieces.size(), false);
  special[0] = special[1] = true;  // pad, eos
  const Vocabulary v(pieces, special, 1);
  auto id = [&](const std::string& s) {
    return static_cast<int>(std::find(pieces.begin(), pieces.end(), s) - pieces.begin());
  };
  // Walks `tokens` from the start; -1 as soon as one is not allowed.
  auto walk = [&](const TokenAutomaton& a, const std::vector<std::string>& tokens) {
    int state = a.start();
    for (const auto& t : tokens)
      if (state >= 0) state = a.next(state, id(t));
    return state;
  };
  const Grammar& tsp = builtin_grammar("tsp");
  const auto n102 = TokenAutomaton::build(ByteDfa::compile(tsp, {0, 101}), v);
  const auto n103 = TokenAutomaton::build(ByteDfa::compile(tsp, {0, 102}), v);
  EXPECT_LT(walk(*n102, {"Route: [", "102"}), 0);  // 102 > 101 whatever follows
  EXPECT_GE(walk(*n103, {"Route: [", "102"}), 0);
  EXPECT_LT(walk(*n102, {"Route: [", "1", "02"}), 0);  // the same index split in two
  EXPECT_GE(walk(*n103, {"Route: [", "1", "02"}), 0);
  EXPECT_LT(walk(*n102, {"Route: [", "10", "2"}), 0);
  EXPECT_GE(walk(*n102, {"Route: [", "10", "], "}), -1);  // "], " is not followed by "[" in a flat list ...
  EXPECT_LT(walk(*n102, {"Route: [", "10", "], ", "1"}), 0);  // ... so nothing can follow it
  EXPECT_LT(walk(*n102, {"Route: [", "02"}), 0);               // leading zero
  EXPECT_LT(walk(*n102, {"Route: [", "0", "2"}), 0);
  EXPECT_LT(walk(*n102, {"Route: [", " 13,"}), 0);  // no space after '['
  EXPECT_GE(walk(*n102, {"Route: [", "13, ", "10", "], Objective: ", "3.5"}), 0);
  EXPECT_LT(walk(*n102, {"Route: [", "13, ", "], Objective: "}), 0);  // ", " must be followed by an index
  // EOS exactly where the sentence may end.
  const int done = walk(*n102, {"Route: [", "1", "], Objective: ", "3", ".", "5"});
  ASSERT_GE(done, 0);
  EXPECT_TRUE(n102->mask(done).test(v.eos_id()));
  EXPECT_EQ(n102->next(done, v.eos_id()), n102->finished_state());
  EXPECT_FALSE(n102->mask(walk(*n102, {"Route: [", "1", "], Objective: ", "3", "."})).test(v.eos_id()));
  EXPECT_FALSE(n102->mask(n102->start()).test(0));  // pad
  // In the finished state only EOS is allowed, and it stays there.
  const TokenMask finished = n102->mask(n102->finished_state());
  EXPECT_EQ(finished.count(), 1);
  EXPECT_TRUE(finished.test(v.eos_id()));
  // Nested lists: "5], [" closes a route and opens the next.
  const auto cvrp = TokenAutomaton::build(ByteDfa::compile(builtin_grammar("cvrp"), {1, 20}), v);
  EXPECT_GE(walk(*cvrp, {"Routes: [[", "1", "5], [", "2", "], Objective: "}), -1);
  EXPECT_LT(walk(*cvrp, {"Routes: [[", "1", "5], [", "2", "], Objective: "}), 0);  // the outer ']' is missing
  EXPECT_GE(walk(*cvrp, {"Routes: [[", "1", "5], [", "2", "]", "], Objective: ", "3.5"}), 0);
  EXPECT_LT(walk(*cvrp, {"Routes: [[", "2", "5], ["}), 0);  // 25 > 20
}

TEST(TokenMask, TokensThatCannotLeadAnywhereAreCut) {
  // Without the byte "]" a list can never close: the vocabulary cannot spell a sentence.
  const std::vector<std::string> pieces{"", "Route: [", "1", ", "};
  EXPECT_THROW(TokenAutomaton::build(ByteDfa::compile(builtin_grammar("tsp"), {0, 5}),
                                     Vocabulary(pieces, {true, false, false, false}, 0)),
               Error);
  // After "Route: [1" the byte DFA allows ", ", but no token starts an index after it.
  const std::vector<std::string> more{"", "Route: [1", ", ", "], Objective: 1.0"};
  const Vocabulary v(more, {true, false, false, false}, 0);
  const auto a = TokenAutomaton::build(ByteDfa::compile(builtin_grammar("tsp"), {0, 5}), v);
  const int open = a->next(a->start(), 1);
  ASSERT_GE(open, 0);
  EXPECT_FALSE(a->mask(open).test(2));
  EXPECT_TRUE(a->mask(open).test(3));
}

TEST(TokenMask, SpecialTokensOfTheTrainedTokenizerAreNeverAllowed) {
  const Vocabulary& v = trained_vocabulary();
  EXPECT_GT(v.size(), 1000);
  const auto a = TokenAutomaton::build(ByteDfa::compile(builtin_grammar("tsp"), {0, 99}), v);
  for (int s = 0; s < a->num_states(); ++s)
    for (int id = 0; id < v.size(); ++id)
      if (v.is_special(id) && id != v.eos_id()) ASSERT_FALSE(a->mask(s).test(id));
  // The tokenizer's own encoding of a solution is a path of allowed tokens.
  int multi_digit = 0;
  for (int id = 0; id < v.size(); ++id) {
    const std::string& b = v.bytes(id);
    multi_digit += b.size() > 1 && std::isdigit(static_cast<unsigned char>(b[0])) && std::isdigit(static_cast<unsigned char>(b[1]));
  }
  EXPECT_GT(multi_digit, 20);  // the tokenizer really has multi-digit tokens to be exact about
}

TEST(AutomatonCache, CompilesOncePerKeyAcrossThreads) {
  AutomatonCache cache;
  const Vocabulary bytes = Vocabulary::byte_level();
  std::vector<std::shared_ptr<const TokenAutomaton>> got(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] { got[t] = cache.get(builtin_grammar(t % 2 ? "tsp" : "cvrp"), {1, 50}, bytes); });
  for (auto& th : threads) th.join();
  for (int t = 2; t < 8; ++t) EXPECT_EQ(got[t].get(), got[t % 2].get());
  EXPECT_NE(got[0].get(), got[1].get());
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.misses(), 2u);
  EXPECT_EQ(cache.hits(), 6u);
  // Another range, or an equal vocabulary built again, is a different / the same key.
  EXPECT_NE(cache.get(builtin_grammar("tsp"), {1, 51}, bytes).get(), got[1].get());
  EXPECT_EQ(cache.get(builtin_grammar("tsp"), {1, 50}, Vocabulary::byte_level()).get(), got[1].get());
  // Errors reach the caller and are not cached.
  EXPECT_THROW(cache.get(builtin_grammar("cvrp"), {1, 0}, bytes), Error);
  EXPECT_THROW(cache.get(builtin_grammar("cvrp"), {1, 0}, bytes), Error);
  EXPECT_EQ(cache.size(), 3u);
  cache.clear();
  EXPECT_EQ(cache.size(), 0u);
}

TEST(GrammarState, FollowsTheAutomatonAndCopiesCheaply) {
  const auto& problem = problems::problem_by_name("pfsp");
  const auto instance = testing::make_instance("pfsp", 12);
  GrammarState state = make_grammar_state(problem, instance, Vocabulary::byte_level());
  const GrammarState initial = state;
  for (char c : std::string("Order: [12, 1")) EXPECT_TRUE(state.accept(static_cast<unsigned char>(c)));
  EXPECT_FALSE(state.accept('3'));  // 13 > 12 jobs
  EXPECT_FALSE(state.accept(256));  // EOS not yet
  EXPECT_FALSE(state.accept(-1));
  EXPECT_FALSE(state.accept(100000));
  EXPECT_TRUE(state.accept('0'));
  EXPECT_FALSE(state.is_accepting());
  for (char c : std::string("], Objective: 1.5")) EXPECT_TRUE(state.accept(static_cast<unsigned char>(c)));
  EXPECT_TRUE(state.is_accepting());
  EXPECT_TRUE(state.accept(256));
  EXPECT_TRUE(state.is_finished());
  EXPECT_EQ(initial.automaton_state(), initial.automaton().start());  // the copy did not move
  state.reset();
  EXPECT_EQ(state.automaton_state(), initial.automaton_state());
}

}  // namespace
}  // namespace falcon::decoding
