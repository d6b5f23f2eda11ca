#include "falcon/decoding/grammar_state.h"

#include <algorithm>

#include "falcon/core/error.h"
#include "falcon/decoding/byte_tracker.h"
#include "falcon/decoding/builtin_grammars.h"

namespace falcon::decoding {

GrammarState::GrammarState(std::shared_ptr<const TokenAutomaton> automaton, std::optional<SemanticTracker> semantic,
                           std::optional<ComputedNotes> notes)
    : automaton_(std::move(automaton)), semantic_(std::move(semantic)), notes_(std::move(notes)) {
  if (automaton_ == nullptr) throw Error("grammar state: no automaton");
  state_ = automaton_->start();
}

TokenMask GrammarState::mask() const {
  // Outside the body (the objective) the trackers read nothing: the row is the mask.
  if (!tracking()) return automaton_->mask(state_);
  if (!words_valid_) compute_tracked_mask();
  return {words_.data(), automaton_->num_words(), automaton_->vocab_size()};
}

// The semantic tracker and the computed notes as one tracker for feed_all: both or neither take a
// byte, and a mark is both of theirs.
struct GrammarState::Trackers {
  std::optional<SemanticTracker>& semantic;
  std::optional<ComputedNotes>& notes;

  struct Mark {
    std::optional<SemanticTracker::Mark> semantic;
    std::optional<ComputedNotes::Mark> notes;
  };
  Mark mark() const {
    Mark m;
    if (semantic) m.semantic = semantic->mark();
    if (notes) m.notes = notes->mark();
    return m;
  }
  void undo(const Mark& m) const {
    if (semantic) semantic->undo(*m.semantic);
    if (notes) notes->undo(*m.notes);
  }
  bool step(unsigned char byte) const {
    const Mark before = mark();
    if ((semantic && !semantic->step(byte)) || (notes && !notes->step(byte))) {
      undo(before);
      return false;
    }
    return true;
  }
};

// The grammar row AND, for each token, "its bytes keep the trackers' rules": one walk of the
// vocabulary trie that steps the byte DFA and the trackers together and cuts a subtree as soon
// as one rejects, so tokens sharing a prefix share its work.
void GrammarState::compute_tracked_mask() const {
  const TokenMask row = automaton_->mask(state_);
  words_.assign(row.num_words, 0);
  if (is_finished()) {
    std::copy(row.words, row.words + row.num_words, words_.begin());
  } else {
    const int eos = automaton_->eos_id();
    if (row.test(eos)) words_[eos >> 6] |= 1ull << (eos & 63);  // the body's end was checked at its ']'
    Trackers trackers{semantic_, notes_};
    note_only_.clear();
    walk(trackers, 0, state_, 0, true);
    // The decoder writes a note in its longest tokens, as the tokenizer spells a text: left a
    // choice between "#1" + "7" and "#17", a model never trained on note tokens could pick a
    // spelling it never read. Tokens that run past the note (")," ) stay the model's choice.
    int longest = 0;
    for (const auto& [token, length] : note_only_) longest = std::max(longest, length);
    for (const auto& [token, length] : note_only_)
      if (length == longest) words_[token >> 6] |= 1ull << (token & 63);
  }
  words_valid_ = true;
}

void GrammarState::walk(Trackers& trackers, std::uint32_t node, int dfa_state, int depth, bool all_note) const {
  const VocabTrie& trie = automaton_->vocabulary().trie();
  const ByteDfa& dfa = automaton_->byte_dfa();
  const TokenMask row = automaton_->mask(state_);
  const VocabTrie::Node& nd = trie.nodes[node];
  for (std::uint32_t c = nd.first_child; c < nd.first_child + nd.num_children; ++c) {
    const std::int32_t next = dfa.step(dfa_state, trie.child_byte[c]);
    if (next < 0) continue;
    const bool note_byte = all_note && notes_ && notes_->writes_note(trie.child_byte[c]);
    const Trackers::Mark mark = trackers.mark();
    if (!trackers.step(trie.child_byte[c])) continue;
    const VocabTrie::Node& child = trie.nodes[c];
    for (std::uint32_t k = 0; k < child.num_tokens; ++k) {
      const int token = trie.tokens[child.first_token + k];
      if (!row.test(token)) continue;
      if (note_byte) {
        note_only_.emplace_back(token, depth + 1);
      } else {
        words_[token >> 6] |= 1ull << (token & 63);
      }
    }
    walk(trackers, c, next, depth + 1, note_byte);
    trackers.undo(mark);
  }
}

bool GrammarState::accept(int token) {
  const int next = automaton_->next(state_, token);
  if (next < 0) return false;
  if (tracking()) {
    if (words_valid_ && !mask().test(token)) return false;
    Trackers trackers{semantic_, notes_};
    if (!feed_all(trackers, automaton_->vocabulary().bytes(token))) return false;
    if (semantic_) semantic_->commit();
    if (notes_) notes_->commit();
    words_valid_ = false;
  }
  state_ = next;
  return true;
}

void GrammarState::reset() {
  state_ = automaton_->start();
  if (semantic_) semantic_->reset();
  if (notes_) notes_->reset();
  words_valid_ = false;
}

std::shared_ptr<const TokenAutomaton> grammar_automaton(const problems::Problem& problem,
                                                        const problems::Instance& instance,
                                                        const Vocabulary& vocabulary, const GrammarOptions& options,
                                                        AutomatonCache& cache) {
  const problems::GrammarSpec spec = problem.grammar(instance);
  const IndexRange range{spec.first_index, spec.last_index};
  if (options.free_text) return cache.get(builtin_grammar("free_text"), range, vocabulary);
  if (!options.grammar_file.empty()) return cache.get(Grammar::load(options.grammar_file), range, vocabulary);
  return cache.get(builtin_grammar(problem.grammar_name()), range, vocabulary);
}

GrammarState make_grammar_state(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                                const Vocabulary& vocabulary, const GrammarOptions& options, AutomatonCache& cache) {
  if (instance == nullptr) throw Error("grammar state: no instance given");
  auto automaton = grammar_automaton(problem, *instance, vocabulary, options, cache);
  std::optional<SemanticTracker> semantic;  // an echo style's problem refuses it: it would read notes as indices
  if (options.semantic) semantic.emplace(problem.semantic_constraint(instance), problem.text_format().nested);
  std::optional<ComputedNotes> notes;
  // Where the text has notes: a model of several problems may write some of them without.
  if (options.computed_notes && problem.text_format().echo) notes.emplace(problem, instance, options.note_picks);
  return GrammarState(std::move(automaton), std::move(semantic), std::move(notes));
}

}  // namespace falcon::decoding
