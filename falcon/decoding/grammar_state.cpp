#include "falcon/decoding/grammar_state.h"

#include <algorithm>

#include "falcon/core/error.h"
#include "falcon/decoding/builtin_grammars.h"

namespace falcon::decoding {

GrammarState::GrammarState(std::shared_ptr<const TokenAutomaton> automaton, std::optional<SemanticTracker> semantic)
    : automaton_(std::move(automaton)), semantic_(std::move(semantic)) {
  if (automaton_ == nullptr) throw Error("grammar state: no automaton");
  state_ = automaton_->start();
}

TokenMask GrammarState::mask() const {
  // Outside the body (the objective) the tracker reads nothing: the row is the mask.
  if (!semantic_ || semantic_->done()) return automaton_->mask(state_);
  if (!words_valid_) compute_semantic_mask();
  return {words_.data(), automaton_->num_words(), automaton_->vocab_size()};
}

// The grammar row AND, for each token, "its bytes keep the semantic constraints": one walk of
// the vocabulary trie that steps the byte DFA and the tracker together and cuts a subtree as
// soon as either rejects, so tokens sharing a prefix share its work.
void GrammarState::compute_semantic_mask() const {
  const TokenMask row = automaton_->mask(state_);
  words_.assign(row.num_words, 0);
  if (is_finished()) {
    std::copy(row.words, row.words + row.num_words, words_.begin());
  } else {
    const int eos = automaton_->eos_id();
    if (row.test(eos)) words_[eos >> 6] |= 1ull << (eos & 63);  // the body's end was checked at its ']'
    walk(0, state_);
  }
  words_valid_ = true;
}

void GrammarState::walk(std::uint32_t node, int dfa_state) const {
  const VocabTrie& trie = automaton_->vocabulary().trie();
  const ByteDfa& dfa = automaton_->byte_dfa();
  const TokenMask row = automaton_->mask(state_);
  const VocabTrie::Node& nd = trie.nodes[node];
  for (std::uint32_t c = nd.first_child; c < nd.first_child + nd.num_children; ++c) {
    const std::int32_t next = dfa.step(dfa_state, trie.child_byte[c]);
    if (next < 0) continue;
    const SemanticTracker::Mark mark = semantic_->mark();
    if (!semantic_->step(trie.child_byte[c])) continue;
    const VocabTrie::Node& child = trie.nodes[c];
    for (std::uint32_t k = 0; k < child.num_tokens; ++k) {
      const int token = trie.tokens[child.first_token + k];
      if (row.test(token)) words_[token >> 6] |= 1ull << (token & 63);
    }
    walk(c, next);
    semantic_->undo(mark);
  }
}

bool GrammarState::accept(int token) {
  const int next = automaton_->next(state_, token);
  if (next < 0) return false;
  if (semantic_ && !semantic_->done()) {
    if (words_valid_) {
      if (!mask().test(token)) return false;
      semantic_->feed(automaton_->vocabulary().bytes(token));
    } else if (!semantic_->feed(automaton_->vocabulary().bytes(token))) {
      return false;
    }
    semantic_->commit();
    words_valid_ = false;
  }
  state_ = next;
  return true;
}

void GrammarState::reset() {
  state_ = automaton_->start();
  if (semantic_) semantic_->reset();
  words_valid_ = false;
}

std::shared_ptr<const TokenAutomaton> grammar_automaton(const problems::Problem& problem,
                                                        const problems::Instance& instance,
                                                        const Vocabulary& vocabulary, const GrammarOptions& options,
                                                        AutomatonCache& cache) {
  const problems::GrammarSpec spec = problem.grammar(instance);
  const IndexRange range{spec.first_index, spec.last_index};
  if (!options.grammar_file.empty()) return cache.get(Grammar::load(options.grammar_file), range, vocabulary);
  return cache.get(builtin_grammar(problem.grammar_name()), range, vocabulary);
}

GrammarState make_grammar_state(const problems::Problem& problem, std::shared_ptr<const problems::Instance> instance,
                                const Vocabulary& vocabulary, const GrammarOptions& options, AutomatonCache& cache) {
  if (instance == nullptr) throw Error("grammar state: no instance given");
  auto automaton = grammar_automaton(problem, *instance, vocabulary, options, cache);
  if (!options.semantic) return GrammarState(std::move(automaton));
  return GrammarState(std::move(automaton), SemanticTracker(problem.semantic_constraint(std::move(instance)),
                                                            problem.text_format().nested));
}

}  // namespace falcon::decoding
