#pragma once
// The byte DFA lifted to tokens: every vocabulary token is walked through the DFA from every
// state once (over the vocabulary trie, so shared prefixes are walked once), and each state
// keeps a mask bitset over the vocabulary and the next state of every allowed token. A mask
// is then a row lookup and a step a popcount.
//   - a token is allowed iff its bytes lead to a state from which, with this vocabulary's
//     tokens, an accepting state can still be reached (so no sequence ever gets stuck);
//   - EOS is allowed exactly in accepting states and leads to finished_state(), where only
//     EOS is allowed (a finished row of a batch always has one allowed token);
//   - special tokens (pad, unk, bos, control) and tokens with no bytes are never allowed.
#include <cstdint>
#include <memory>
#include <vector>

#include "falcon/decoding/byte_dfa.h"
#include "falcon/decoding/vocabulary.h"

namespace falcon::decoding {

// A row of the mask: bit id of words[id / 64] is set when token id is allowed.
struct TokenMask {
  const std::uint64_t* words = nullptr;
  int num_words = 0;
  int vocab_size = 0;
  bool test(int id) const { return (words[id >> 6] >> (id & 63)) & 1u; }
  int count() const;  // allowed tokens
};

// Sets logits[id] to -infinity for every token id < mask.vocab_size that `mask` does not
// allow (what a CPU sampler does before softmax). Word by word: a run of 64 allowed tokens
// costs one test, a run of 64 masked ones a fill.
void apply_mask(const TokenMask& mask, float* logits);

// The allowed token ids of a row, ascending (a sparse sampler's view of a grammar row).
struct TokenList {
  const std::int32_t* ids = nullptr;
  int size = 0;
  const std::int32_t* begin() const { return ids; }
  const std::int32_t* end() const { return ids + size; }
};

class TokenAutomaton {
 public:
  // Throws falcon::Error when this vocabulary cannot spell any sentence of the grammar.
  static std::shared_ptr<const TokenAutomaton> build(ByteDfa dfa, const Vocabulary& vocabulary);

  int num_states() const { return num_states_; }  // DFA states + the finished state
  int start() const { return dfa_.start(); }
  int finished_state() const { return num_states_ - 1; }
  bool accepting(int state) const { return state < dfa_.num_states() && dfa_.accepting(state); }

  TokenMask mask(int state) const {
    return {masks_.data() + static_cast<std::size_t>(state) * num_words_, num_words_, vocab_size_};
  }
  // The state after `token`, or -1 when the token is not allowed in `state`.
  int next(int state, int token) const;
  // The tokens mask(state) allows, ascending (EOS included where allowed).
  TokenList allowed(int state) const {
    return {tokens_.data() + next_offset_[state], static_cast<int>(next_offset_[state + 1] - next_offset_[state])};
  }

  int vocab_size() const { return vocab_size_; }
  int num_words() const { return num_words_; }
  int eos_id() const { return vocabulary_.eos_id(); }
  const ByteDfa& byte_dfa() const { return dfa_; }
  const Vocabulary& vocabulary() const { return vocabulary_; }
  // The tables this automaton holds (masks, ranks, transitions), not the DFA or vocabulary.
  std::size_t memory_bytes() const {
    return masks_.size() * sizeof(std::uint64_t) + rank_.size() * sizeof(std::uint32_t) +
           next_offset_.size() * sizeof(std::uint32_t) + (next_.size() + tokens_.size()) * sizeof(std::int32_t);
  }

 private:
  TokenAutomaton(ByteDfa dfa, Vocabulary vocabulary) : dfa_(std::move(dfa)), vocabulary_(std::move(vocabulary)) {}

  ByteDfa dfa_;
  Vocabulary vocabulary_;
  int num_states_ = 0;
  int vocab_size_ = 0;
  int num_words_ = 0;
  std::vector<std::uint64_t> masks_;        // num_states x num_words
  std::vector<std::uint32_t> rank_;         // allowed tokens in earlier words of the row
  std::vector<std::uint32_t> next_offset_;  // per state: start of its entries in next_
  std::vector<std::int32_t> next_;          // next state of each allowed token, in token order
  std::vector<std::int32_t> tokens_;        // the allowed tokens themselves, parallel to next_
};

}  // namespace falcon::decoding
