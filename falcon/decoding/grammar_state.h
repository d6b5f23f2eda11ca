#pragma once
// The grammar mask of one sequence: where it is in the token automaton, and (optionally) the
// semantic tracker or the computed notes, whose masks are AND-ed in. Copy one initial state for
// the N samples of a prompt: with neither, a copy is a pointer and two ints.
//
//   GrammarState state = make_grammar_state(problem, instance, vocabulary, options);
//   while (!state.is_finished()) {
//     TokenMask allowed = state.mask();       // set logits of the tokens not in it to -inf
//     int token = sample(logits, allowed);
//     state.accept(token);                    // false (and no change) if the token was not allowed
//   }
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "falcon/decoding/automaton_cache.h"
#include "falcon/decoding/computed_notes.h"
#include "falcon/decoding/semantic.h"
#include "falcon/decoding/token_automaton.h"
#include "falcon/problems/problem.h"

namespace falcon::decoding {

class GrammarState {
 public:
  explicit GrammarState(std::shared_ptr<const TokenAutomaton> automaton,
                        std::optional<SemanticTracker> semantic = std::nullopt,
                        std::optional<ComputedNotes> notes = std::nullopt);

  // Allowed next tokens. Grammar only: a row of the automaton (valid until the next accept or
  // reset). With a tracker: computed for this state on first call, then reused.
  TokenMask mask() const;
  bool allows(int token) const { return token >= 0 && token < automaton_->vocab_size() && mask().test(token); }
  // Advances by `token` when mask() allows it; returns false and changes nothing otherwise.
  bool accept(int token);
  bool is_accepting() const { return automaton_->accepting(state_); }  // EOS allowed now
  bool is_finished() const { return state_ == automaton_->finished_state(); }  // EOS accepted
  void reset();

  int automaton_state() const { return state_; }
  const TokenAutomaton& automaton() const { return *automaton_; }
  bool semantic() const { return semantic_.has_value(); }
  const std::optional<SemanticTracker>& semantic_tracker() const { return semantic_; }
  const std::optional<ComputedNotes>& computed_notes() const { return notes_; }

 private:
  struct Trackers;  // the trackers present, stepped as one tracker (grammar_state.cpp)
  bool tracking() const { return (semantic_ && !semantic_->done()) || (notes_ && !notes_->done()); }
  void compute_tracked_mask() const;
  void walk(Trackers& trackers, std::uint32_t node, int dfa_state, int depth, bool all_note) const;

  std::shared_ptr<const TokenAutomaton> automaton_;
  int state_;
  // `mutable`: computing the mask steps the trackers through each candidate token and takes it
  // back, so the state is the same afterwards.
  mutable std::optional<SemanticTracker> semantic_;
  mutable std::optional<ComputedNotes> notes_;
  mutable std::vector<std::uint64_t> words_;  // the tracked mask of state_, when words_valid_
  mutable std::vector<std::pair<int, int>> note_only_;  // during a walk: (token, bytes) of the tokens made of note bytes only
  mutable bool words_valid_ = false;
};

struct GrammarOptions {
  bool semantic = false;     // AND the semantic mask (semantic.h); an ablation switch, off by default
  // The decoder writes an echo text's notes (computed_notes.h), in its longest tokens; off by default.
  bool computed_notes = false;
  // With computed_notes: each pick is one the last note lists (computed_notes.h); for a text
  // whose notes are the next pick's choices (compact_ranked). Off by default.
  bool note_picks = false;
  // The grammar off (grammars/free_text.bnf: any bytes) while the trackers stay on: computed notes
  // belong to the text, not to its grammar.
  bool free_text = false;
  std::string grammar_file;  // a .bnf file to use instead of the built-in grammars/<problem>.bnf
};

// The grammar of `problem` (built in, or options.grammar_file) with the index range of
// `instance` (Problem::grammar), compiled for `vocabulary` through `cache`.
std::shared_ptr<const TokenAutomaton> grammar_automaton(const problems::Problem& problem,
                                                        const problems::Instance& instance,
                                                        const Vocabulary& vocabulary,
                                                        const GrammarOptions& options = {},
                                                        AutomatonCache& cache = AutomatonCache::global());

// The initial state of one sequence; copy it for more samples of the same instance.
GrammarState make_grammar_state(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                                const Vocabulary& vocabulary, const GrammarOptions& options = {},
                                AutomatonCache& cache = AutomatonCache::global());

}  // namespace falcon::decoding
