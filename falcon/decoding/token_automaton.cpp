#include "falcon/decoding/token_automaton.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "falcon/core/error.h"
#include "falcon/decoding/reachability.h"

namespace falcon::decoding {
namespace {

using Edge = std::pair<std::int32_t, std::int32_t>;  // (token, next state)

// The tokens each DFA state allows at the byte level: a depth-first walk of the vocabulary
// trie per state, cut where the DFA rejects, so each live prefix is stepped once per state.
std::vector<std::vector<Edge>> byte_level_edges(const ByteDfa& dfa, const VocabTrie& trie) {
  std::vector<std::vector<Edge>> edges(dfa.num_states());
  std::vector<std::pair<std::uint32_t, std::int32_t>> stack;
  for (int s = 0; s < dfa.num_states(); ++s) {
    stack.assign(1, {0u, s});
    while (!stack.empty()) {
      const auto [node, q] = stack.back();
      stack.pop_back();
      const VocabTrie::Node& nd = trie.nodes[node];
      if (node != 0)
        for (std::uint32_t k = 0; k < nd.num_tokens; ++k) edges[s].emplace_back(trie.tokens[nd.first_token + k], q);
      for (std::uint32_t c = nd.first_child; c < nd.first_child + nd.num_children; ++c) {
        const std::int32_t t = dfa.step(q, trie.child_byte[c]);
        if (t >= 0) stack.emplace_back(c, t);
      }
    }
  }
  return edges;
}

// States from which an accepting state is reachable with whole tokens. With a vocabulary
// that has every single byte this is every state; without, tokens into the others are cut.
std::vector<bool> token_live_states(const ByteDfa& dfa, const std::vector<std::vector<Edge>>& edges) {
  const int n = dfa.num_states();
  std::vector<std::vector<int>> reverse(n);
  std::vector<int> targets;
  for (int s = 0; s < n; ++s) {
    targets.clear();
    for (const auto& e : edges[s]) targets.push_back(e.second);
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (int t : targets) reverse[t].push_back(s);
  }
  std::vector<bool> accepting(n);
  for (int s = 0; s < n; ++s) accepting[s] = dfa.accepting(s);
  return reaches(reverse, std::move(accepting));
}

}  // namespace

int TokenMask::count() const {
  int total = 0;
  for (int w = 0; w < num_words; ++w) total += __builtin_popcountll(words[w]);
  return total;
}

void apply_mask(const TokenMask& mask, float* logits) {
  constexpr float kMasked = -std::numeric_limits<float>::infinity();
  for (int w = 0; w < mask.num_words; ++w) {
    const std::uint64_t word = mask.words[w];
    if (word == ~0ull) continue;
    const int base = w * 64;
    const int count = std::min(64, mask.vocab_size - base);
    if (word == 0) {
      std::fill(logits + base, logits + base + count, kMasked);
    } else {
      for (int b = 0; b < count; ++b)
        if (!((word >> b) & 1u)) logits[base + b] = kMasked;
    }
  }
}

std::shared_ptr<const TokenAutomaton> TokenAutomaton::build(ByteDfa dfa, const Vocabulary& vocabulary) {
  std::shared_ptr<TokenAutomaton> a(new TokenAutomaton(std::move(dfa), vocabulary));
  const ByteDfa& d = a->dfa_;
  std::vector<std::vector<Edge>> edges = byte_level_edges(d, vocabulary.trie());
  const std::vector<bool> live = token_live_states(d, edges);
  if (!live[d.start()])
    throw Error("grammar mask: this vocabulary cannot spell any sentence of the grammar (no token sequence "
                "reaches an accepting state); use a tokenizer with byte fallback");

  const int eos = vocabulary.eos_id();
  a->vocab_size_ = vocabulary.size();
  a->num_words_ = (a->vocab_size_ + 63) / 64;
  a->num_states_ = d.num_states() + 1;
  const int finished = a->num_states_ - 1;
  const std::size_t words = a->num_words_;
  a->masks_.assign(a->num_states_ * words, 0);
  a->rank_.assign(a->num_states_ * words, 0);
  a->next_offset_.assign(a->num_states_ + 1, 0);
  for (int s = 0; s < a->num_states_; ++s) {
    std::vector<Edge> row;
    if (s < d.num_states()) {
      row.reserve(edges[s].size() + 1);
      for (const auto& e : edges[s])
        if (live[e.second]) row.push_back(e);
      if (d.accepting(s)) row.emplace_back(eos, finished);
      std::vector<Edge>().swap(edges[s]);
    } else {
      row.emplace_back(eos, finished);  // the finished state
    }
    std::sort(row.begin(), row.end());
    std::uint64_t* m = a->masks_.data() + s * words;
    for (const auto& e : row) m[e.first >> 6] |= 1ull << (e.first & 63);
    std::uint32_t* r = a->rank_.data() + s * words;
    std::uint32_t before = 0;
    for (std::size_t w = 0; w < words; ++w) {
      r[w] = before;
      before += static_cast<std::uint32_t>(__builtin_popcountll(m[w]));
    }
    a->next_offset_[s] = static_cast<std::uint32_t>(a->next_.size());
    for (const auto& e : row) {
      a->next_.push_back(e.second);
      a->tokens_.push_back(e.first);
    }
  }
  a->next_offset_[a->num_states_] = static_cast<std::uint32_t>(a->next_.size());
  return a;
}

int TokenAutomaton::next(int state, int token) const {
  if (state < 0 || state >= num_states_ || token < 0 || token >= vocab_size_) return -1;
  const std::size_t row = static_cast<std::size_t>(state) * num_words_;
  const std::uint64_t word = masks_[row + (token >> 6)];
  const std::uint64_t bit = 1ull << (token & 63);
  if (!(word & bit)) return -1;
  const std::uint32_t k = rank_[row + (token >> 6)] + static_cast<std::uint32_t>(__builtin_popcountll(word & (bit - 1)));
  return next_[next_offset_[state] + k];
}

}  // namespace falcon::decoding
