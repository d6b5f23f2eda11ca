// Computed notes: after each index of a compact_echo text only its right note may follow (byte
// by byte on hand-made instances), sampled texts under the mask carry exactly the notes
// the text style writes for their indices, on multi-byte vocabularies, and the fast mask (one
// trie walk with take-backs) equals feeding each token's bytes to a copy of the tracker.
#include "falcon/decoding/computed_notes.h"

#include <gtest/gtest.h>

#include <set>

#include "falcon/core/error.h"
#include "falcon/decoding/grammar_state.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/registry.h"
#include "falcon/solvers/solver.h"
#include "falcon/formats/text_style.h"
#include "test_util.h"

namespace falcon::decoding {
namespace {

using testing::make_instance;
using testing::sample_uniform;

const problems::Problem& echo(const std::string& problem, const std::string& style = "compact_echo") {
  return formats::with_text_style(problems::problem_by_name(problem), {style, 0});
}

GrammarOptions notes_on() {
  GrammarOptions options;
  options.computed_notes = true;
  return options;
}

GrammarState notes_state(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                         const Vocabulary& vocabulary) {
  return make_grammar_state(problem, std::move(instance), vocabulary, notes_on());
}

// The bytes the computed notes allow after `prefix`.
std::string allowed_after(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                          const std::string& prefix) {
  return testing::allowed_after(problem, std::move(instance), notes_on(), prefix);
}

std::shared_ptr<const problems::Instance> small_cvrp() {  // customers 1..4, demands 5 5 5 6, capacity 10
  auto base = std::static_pointer_cast<const problems::cvrp::CvrpInstance>(make_instance("cvrp", 5));
  auto cvrp = std::make_shared<problems::cvrp::CvrpInstance>(*base);
  cvrp->demands = {0, 5, 5, 5, 6};
  cvrp->capacity = 10;
  return cvrp;
}

TEST(ComputedNotes, CvrpNotesAreTheDemandAndTheCapacityLeft) {
  const auto& cvrp = echo("cvrp");
  const auto instance = small_cvrp();
  EXPECT_EQ(allowed_after(cvrp, instance, "Routes: [[#1"), " ");  // the note starts; #1 cannot grow (n = 5)
  EXPECT_EQ(allowed_after(cvrp, instance, "Routes: [[#1 ("), "5");
  EXPECT_EQ(allowed_after(cvrp, instance, "Routes: [[#1 (5"), " ");
  EXPECT_EQ(allowed_after(cvrp, instance, "Routes: [[#1 (5 "), "5");
  EXPECT_EQ(allowed_after(cvrp, instance, "Routes: [[#1 (5 5"), ")");
  EXPECT_EQ(allowed_after(cvrp, instance, "Routes: [[#1 (5 5), #4 (6 "), "0");  // over capacity: the note says 0
  // A new route starts full; the model, not the notes, decides where routes break.
  EXPECT_EQ(allowed_after(cvrp, instance, "Routes: [[#1 (5 5), #4 (6 0)], [#2 (5 "), "5");
  EXPECT_EQ(allowed_after(cvrp, instance, "Routes: [[#1 (4"), "refused '4'");
  EXPECT_EQ(allowed_after(cvrp, instance, "Routes: [[#1 (5 6"), "refused '6'");
  // After the body the objective is the model's again.
  EXPECT_EQ(allowed_after(cvrp, instance, "Routes: [[#1 (5 5)]], Objective: 1.5"), "0123456789<eos>");
}

TEST(ComputedNotes, WithTheGrammarOffTheTextIsFreeAndTheNotesAreStillWritten) {
  const auto& cvrp = echo("cvrp");
  const auto instance = small_cvrp();
  GrammarOptions free_notes = notes_on();
  free_notes.free_text = true;
  auto after = [&](const std::string& prefix) { return testing::allowed_after(cvrp, instance, free_notes, prefix); };
  EXPECT_EQ(after("").size(), 256u + 5u);  // every byte and EOS: no keyword is required
  // After an index its note, grammar or not; with no grammar to bound the range, the ID may grow.
  // EOS stays allowed anywhere, as in unconstrained decoding.
  EXPECT_EQ(after("Routes - [[#1"), " 0123456789<eos>");
  EXPECT_EQ(after("Routes - [[#1 ("), "5<eos>");
  EXPECT_EQ(after("Routes - [[#1 (5 5"), ")<eos>");
  EXPECT_EQ(after("Routes - [[#1 (5 5)").size(), 256u + 5u);  // past the note: anything, even "garbage"
  EXPECT_EQ(after("Routes - [[#1 (5 5)garbage]]").size(), 256u + 5u);
  // With the grammar on, the same garbled keyword is refused.
  EXPECT_EQ(testing::allowed_after(cvrp, instance, notes_on(), "Routes - "), "refused ' '");
}

TEST(ComputedNotes, AnIdThatMayStillGrowGetsItsNoteOnlyWhenItEnds) {
  const auto& cvrp = echo("cvrp");
  const auto instance = make_instance("cvrp", 21);  // customers 1..20
  const auto& demands = static_cast<const problems::cvrp::CvrpInstance&>(*instance).demands;
  const std::string after_one = allowed_after(cvrp, instance, "Routes: [[#1");
  EXPECT_NE(after_one.find(' '), std::string::npos);  // #1 itself
  EXPECT_NE(after_one.find('2'), std::string::npos);  // or #12
  EXPECT_EQ(allowed_after(cvrp, instance, "Routes: [[#12 ("), std::to_string(demands[12]).substr(0, 1));
  EXPECT_EQ(allowed_after(cvrp, instance, "Routes: [[#1 ("), std::to_string(demands[1]).substr(0, 1));
}

// The note the tracker writes next, byte by byte (it allows only the note's own bytes).
std::string write_note(ComputedNotes& notes) {
  std::string note;
  for (bool advanced = true; advanced;) {
    advanced = false;
    for (int b = 32; b < 127 && !advanced; ++b) {
      if (!notes.writes_note(static_cast<unsigned char>(b))) continue;
      const auto before = notes.mark();
      advanced = notes.step(static_cast<unsigned char>(b));
      if (advanced) note += static_cast<char>(b); else notes.undo(before);
    }
  }
  return note;
}

TEST(ComputedNotes, NotePicksTakeOnlyTheNotesChoices) {
  const auto& op = echo("op", "compact_ranked");
  const auto instance = make_instance("op", 20);
  ComputedNotes picks(op, instance, /*note_picks=*/true), any_pick(op, instance);
  auto listed_in = [](const std::string& note) {
    std::set<std::string> ids;
    for (std::size_t i = note.find('#'); i != std::string::npos; i = note.find('#', i + 1))
      ids.insert(note.substr(i + 1, note.find_first_not_of("0123456789", i + 1) - i - 1));
    return ids;
  };
  auto takes = [](ComputedNotes& notes, const std::string& bytes) {
    const auto before = notes.mark();
    const bool ok = notes.feed(bytes);
    notes.undo(before);
    return ok;
  };
  // Walk the route by each note's last (worst) choice until a note leaves out a node not yet taken.
  std::set<std::string> taken = {"1"};
  std::string prefix = "Route: [#1", note, unlisted;
  ASSERT_TRUE(picks.feed(prefix));
  ASSERT_TRUE(any_pick.feed(prefix));
  while (unlisted.empty()) {
    note = write_note(picks);
    ASSERT_EQ(write_note(any_pick), note);
    const auto listed = listed_in(note);
    ASSERT_FALSE(listed.empty()) << "the budget ran out before a note left a node out: " << prefix;
    for (int k = 2; k < 20 && unlisted.empty(); ++k)
      if (!listed.count(std::to_string(k)) && !taken.count(std::to_string(k))) unlisted = std::to_string(k);
    if (!unlisted.empty()) break;
    const std::string next = ", #" + *listed.rbegin();
    taken.insert(*listed.rbegin());
    ASSERT_TRUE(picks.feed(next));
    ASSERT_TRUE(any_pick.feed(next));
    prefix += next;
  }
  EXPECT_TRUE(takes(picks, ", #" + *listed_in(note).begin() + " "));
  EXPECT_FALSE(takes(picks, ", #" + unlisted + " ")) << prefix << note;  // not a choice of the note
  EXPECT_TRUE(takes(any_pick, ", #" + unlisted + " "));                  // without note picks, any index
  EXPECT_FALSE(takes(picks, "], Objective: 1.0"));  // a listed node still fits: the route goes on
  EXPECT_TRUE(takes(any_pick, "], Objective: 1.0"));
}

GrammarOptions picks_on() {
  GrammarOptions options = notes_on();
  options.note_picks = true;
  return options;
}

TEST(ComputedNotes, NotePicksEndCvrpRoutesWhenFullAndTheBodyWhenAllAreRouted) {
  const auto& cvrp = echo("cvrp", "compact_ranked");
  const auto instance = small_cvrp();  // demands 5 5 5 6, capacity 10: two routes at least
  auto after = [&](const std::string& prefix) { return testing::allowed_after(cvrp, instance, picks_on(), prefix); };
  ComputedNotes notes(cvrp, instance);
  ASSERT_TRUE(notes.feed("Routes: [[#1"));
  const std::string after_one = write_note(notes);  // " (#2#3)" in some order: 4 does not fit
  ASSERT_EQ(after_one.size(), 7u) << after_one;
  const std::string second(1, after_one[3]);
  const std::string route = "Routes: [[#1" + after_one + ", #" + second;
  ASSERT_TRUE(notes.feed(", #" + second));
  const std::string full = write_note(notes);  // " (#0...)": nothing fits, the customers left follow
  ASSERT_EQ(full.substr(0, 4), " (#0") << full;
  EXPECT_EQ(after(route + full), "]");                  // the route is full: it can only end
  EXPECT_EQ(after(route + full + "]"), ",");            // customers are left: the body cannot end
  EXPECT_EQ(after("Routes: [[#1" + after_one + "]"), ",");  // nor after a route ended early
  // A route's first pick is a customer not yet routed (the note an empty route leaves lists them).
  const std::string next = route + full + "], [#";
  EXPECT_EQ(after(next).find_first_of("12"), std::string::npos) << after(next);
  EXPECT_NE(after(next).find_first_of("34"), std::string::npos) << after(next);
  EXPECT_EQ(after("Routes: [[#1" + after_one + "], [#").find('1'), std::string::npos);
  // Without note picks, the same prefixes are free.
  EXPECT_NE(testing::allowed_after(cvrp, instance, notes_on(), route + full + "]").find(']'), std::string::npos);
}

// A flat text under note picks ends only where its note lists nothing, as the heuristic sampler's
// walk does: a set that a free vertex could still join stays open.
TEST(ComputedNotes, NotePicksEndAFlatTextOnlyWhenItsNoteListsNothing) {
  const auto& mis = echo("mis", "compact_ranked");
  const auto instance = make_instance("mis", 12);
  const auto& greedy = solvers::solver_by_name("mis", "greedy");
  const std::string text = mis.format(*instance, greedy.solve(*instance, {1, 0.5}));  // a maximal set
  const std::size_t end = text.rfind(']');
  ASSERT_NE(end, std::string::npos) << text;
  int open_points = 0;
  for (std::size_t at = text.find(", #"); at != std::string::npos && at < end; at = text.find(", #", at + 1)) {
    const std::string prefix = text.substr(0, at);  // a pick and its note, another pick to come
    EXPECT_EQ(testing::allowed_after(mis, instance, picks_on(), prefix).find(']'), std::string::npos) << prefix;
    EXPECT_NE(testing::allowed_after(mis, instance, notes_on(), prefix).find(']'), std::string::npos) << prefix;
    ++open_points;
  }
  EXPECT_GT(open_points, 0) << text;
  EXPECT_NE(testing::allowed_after(mis, instance, picks_on(), text.substr(0, end)).find(']'), std::string::npos) << text;
}

// Every text the problem's own solvers write (the heuristic the notes rank by, and the reference
// that labels the training data) is one the note picks allow, and it ends there.
TEST(ComputedNotes, NotePicksAllowTheSolversTexts) {
  for (const std::string name : {"cvrp", "op", "mis", "mvc", "pfsp", "jssp"}) {
    const auto& problem = echo(name, "compact_ranked");
    for (const auto* solver : solvers::solvers_for(name)) {
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        const auto instance = make_instance(name, 12, seed);
        const std::string text = problem.format(*instance, solver->solve(*instance, {seed, 0.5}));
        ComputedNotes picks(problem, instance, /*note_picks=*/true);
        EXPECT_TRUE(picks.feed(text) && picks.done()) << name << " " << solver->method << ": " << text;
      }
    }
  }
  // TSP's notes list the 5 nearest unvisited nodes only, and a reference tour may leave them: the
  // heuristic they rank by is always allowed.
  const auto& tsp = echo("tsp", "compact_ranked");
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto instance = make_instance("tsp", 12, seed);
    const auto& nearest = solvers::solver_by_name("tsp", "nearest_neighbor");
    const std::string text = tsp.format(*instance, nearest.solve(*instance, {seed, 0.5}));
    ComputedNotes picks(tsp, instance, /*note_picks=*/true);
    EXPECT_TRUE(picks.feed(text) && picks.done()) << text;
  }
}

TEST(ComputedNotes, MisNotesAreTheNeighboursAboveTheVertex) {
  const auto& mis = echo("mis");
  const auto instance = make_instance("mis", 12);
  const auto note = mis.echo_notes(*instance, problems::Solution::flat({3}));
  const std::string text = "Set: [#3" + problems::echo_note_text(note[0][0]);
  GrammarState state = notes_state(mis, instance, Vocabulary::byte_level());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const TokenMask mask = state.mask();
    for (int b = 0; b < 256; ++b)  // inside the note exactly one byte is allowed: the next one
      if (i >= 8) EXPECT_EQ(mask.test(b), b == static_cast<unsigned char>(text[i])) << "byte " << i << " of " << text;
    ASSERT_TRUE(state.accept(static_cast<unsigned char>(text[i])));
  }
}

TEST(ComputedNotes, RefusedWithoutNotesOrBesideTheSemanticMask) {
  const auto instance = make_instance("cvrp", 5);
  EXPECT_THROW(ComputedNotes(formats::with_text_style(problems::problem_by_name("cvrp"), {"compact", 0}), instance), Error);
  GrammarOptions both;
  both.semantic = true;
  both.computed_notes = true;
  EXPECT_THROW(make_grammar_state(echo("cvrp"), instance, Vocabulary::byte_level(), both), Error);
  GrammarOptions semantic;  // the semantic tracker would read a note's digits as indices
  semantic.semantic = true;
  EXPECT_THROW(make_grammar_state(echo("cvrp"), instance, Vocabulary::byte_level(), semantic), Error);
}

// The tokens a decoder with computed notes writes itself: those whose every byte is a note's.
TEST(ComputedNotes, NoteTokensAreTheTokensMadeOfNoteBytesOnly) {
  const auto& cvrp = echo("cvrp");
  const auto instance = small_cvrp();
  const std::vector<std::string_view> pieces = {"Routes: [[", "#1", " (5", " 5)", ", #", "4 (6", " 0)",
                                                "]], Objective: 1.5", ""};
  EXPECT_EQ(note_tokens(cvrp, instance, pieces),
            (std::vector<bool>{false, false, true, true, false, false, true, false, false}));
  // A text whose note is not the instance's is not this instance's echo text.
  EXPECT_THROW(note_tokens(cvrp, instance, {"Routes: [[#1 (5 6)]]"}), Error);
}

// On whole texts split byte by byte: the bytes flagged are exactly the texts of the notes, in order.
TEST(ComputedNotes, NoteBytesOfAWholeTextAreItsNotes) {
  const std::vector<std::pair<std::string, std::string>> texts = {
      {"mvc", "compact_echo"}, {"mvc", "compact_state"}, {"mis", "compact_ranked"}, {"mvc", "compact_ranked"}};
  for (const auto& [name, style] : texts) {
    const auto& problem = echo(name, style);
    const auto instance = make_instance(name, 30, 5);
    // A feasible set in the order the text writes it: MIS first-fit in ID order, MVC repair of an empty cover.
    std::vector<int> first_fit;
    for (int v = 0; name == "mis" && v < instance->size(); ++v) {
      first_fit.push_back(v);
      if (!problem.feasible(*instance, problems::Solution::flat(first_fit))) first_fit.pop_back();
    }
    const auto solution = problem.text_order(*instance, problem.repair(*instance, problems::Solution::flat(first_fit)));
    const std::string text = problem.format(*instance, solution);
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < text.size(); ++i) bytes.push_back(std::string_view(text).substr(i, 1));
    const auto flags = note_tokens(problem, instance, bytes);
    std::string flagged, notes;
    for (std::size_t i = 0; i < text.size(); ++i)
      if (flags[i]) flagged += text[i];
    for (const auto& list : problem.echo_notes(*instance, solution))
      for (const auto& note : list) notes += problems::echo_note_text(note);
    EXPECT_FALSE(notes.empty()) << style;
    EXPECT_EQ(flagged, notes) << style << ": " << text;
  }
}

// The body of a solution text: up to where its brackets close (the objective is the model's).
std::string body(const std::string& text) {
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '[') ++depth;
    if (text[i] == ']' && --depth == 0) return text.substr(0, i + 1);
  }
  return text;
}

// Random walks under the mask: every step's fast mask equals the slow one (the grammar row and a
// copy of the tracker fed the token's bytes), and the finished text's notes are echo_notes of its own indices.
void check_sampled_notes(const std::string& name, int n, const Vocabulary& vocabulary, int samples,
                         const std::string& style = "compact_echo", const GrammarOptions& options = notes_on()) {
  const auto& problem = echo(name, style);
  Rng rng(11);
  for (int s = 0; s < samples; ++s) {
    const auto instance = make_instance(name, n, 100 + s);
    GrammarState state = make_grammar_state(problem, instance, vocabulary, options);
    std::string text;
    for (int step = 0; !state.is_finished(); ++step) {
      ASSERT_LT(step, 20000) << name << ": no end";
      const TokenMask fast = state.mask();
      if (step % 7 == 0) {  // the slow mask costs a copy per token: every 7th step
        // Allowed: the grammar row AND the notes, where of the tokens made of note bytes only the
        // longest are left (the decoder spells the note).
        const TokenMask row = state.automaton().mask(state.automaton_state());
        std::vector<int> slow(vocabulary.size(), 0), note_length(vocabulary.size(), 0);
        int longest = 0;
        for (int id = 0; id < vocabulary.size(); ++id) {
          ComputedNotes copy = *state.computed_notes();
          const std::string& bytes = vocabulary.bytes(id);
          bool all_note = !bytes.empty();
          for (const unsigned char b : bytes) all_note = all_note && copy.writes_note(b) && copy.step(b);
          ComputedNotes fresh = *state.computed_notes();
          slow[id] = row.test(id) && fresh.feed(bytes);
          if (slow[id] && all_note) longest = std::max(longest, note_length[id] = static_cast<int>(bytes.size()));
        }
        for (int id = 0; id < vocabulary.size(); ++id) {
          const bool expected = slow[id] && (note_length[id] == 0 || note_length[id] == longest);
          ASSERT_EQ(fast.test(id), expected) << name << " token '" << vocabulary.bytes(id) << "' after " << text;
        }
      }
      ASSERT_GT(fast.count(), 0) << name << ": stuck after " << text;
      const int token = sample_uniform(fast, rng);
      if (token != state.automaton().eos_id()) text += vocabulary.bytes(token);
      ASSERT_TRUE(state.accept(token));
    }
    const auto parsed = problem.parse(text);  // the text's own indices (compact_insert: its anchors)
    ASSERT_TRUE(parsed.solution) << name << ": " << parsed.error << " in " << text;
    const problems::EchoNotes notes = problem.echo_notes(*instance, *parsed.solution);
    EXPECT_EQ(body(text), body(problems::format_solution(problem.text_format(), *parsed.solution, 0.0, &notes))) << name;
    if (options.note_picks)  // each pick a choice of its note and the body closed only when feasible
      EXPECT_TRUE(problem.feasible(*instance, problem.solution_of_text(*instance, *parsed.solution))) << name << ": " << text;
  }
}

TEST(ComputedNotes, SampledTextsCarryTheirOwnNotes) {
  const Vocabulary synthetic = Vocabulary::synthetic(4000, 2);
  for (const std::string problem : {"cvrp", "mis", "mvc"}) {
    check_sampled_notes(problem, 12, Vocabulary::byte_level(), 3);
    check_sampled_notes(problem, 12, synthetic, 3);
    if (HasFatalFailure()) return;
  }
  check_sampled_notes("mis", 12, synthetic, 3, "compact_state");  // the free vertices as the note
  check_sampled_notes("pfsp", 8, synthetic, 3, "compact_insert");  // the next job and its places
  check_sampled_notes("tsp", 12, synthetic, 3, "compact_ranked");   // the nearest unvisited nodes
  check_sampled_notes("jssp", 6, synthetic, 3, "compact_ranked");  // the jobs with work left
  check_sampled_notes("jssp", 6, synthetic, 3, "compact_ranked_conflict");  // the jobs that compete
  check_sampled_notes("mis", 12, synthetic, 3, "compact_ranked_keyed");     // each run of ties' count
  check_sampled_notes("mvc", 12, synthetic, 3, "compact_ranked_keyed");
}

TEST(ComputedNotes, SampledTextsUnderNotePicksAreFeasible) {
  const Vocabulary synthetic = Vocabulary::synthetic(4000, 2);
  for (const std::string problem : {"tsp", "cvrp", "op", "mis", "mvc", "pfsp", "jssp"}) {
    check_sampled_notes(problem, 12, synthetic, 6, "compact_ranked", picks_on());
    check_sampled_notes(problem, 12, Vocabulary::byte_level(), 2, "compact_ranked", picks_on());
    if (HasFatalFailure()) return;
  }
  check_sampled_notes("jssp", 6, synthetic, 6, "compact_ranked_conflict", picks_on());
  for (const std::string problem : {"mis", "mvc"}) {  // a keyed note's counts are not choices
    check_sampled_notes(problem, 12, synthetic, 6, "compact_ranked_keyed", picks_on());
    check_sampled_notes(problem, 12, Vocabulary::byte_level(), 2, "compact_ranked_keyed", picks_on());
  }
}

}  // namespace
}  // namespace falcon::decoding
