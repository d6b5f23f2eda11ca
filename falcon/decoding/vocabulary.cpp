#include "falcon/decoding/vocabulary.h"

#include <algorithm>
#include <numeric>

#include "falcon/core/error.h"
#include "falcon/decoding/grammar.h"
#include "falcon/text/tokenizer.h"

namespace falcon::decoding {
namespace {

// Breadth-first over the sorted token strings, so each node's children are contiguous.
VocabTrie build_trie(const std::vector<std::string>& tokens, const std::vector<bool>& special, int eos) {
  std::vector<std::int32_t> ids;
  for (int id = 0; id < static_cast<int>(tokens.size()); ++id)
    if (!special[id] && id != eos && !tokens[id].empty()) ids.push_back(id);
  std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return tokens[a] < tokens[b]; });

  VocabTrie trie;
  struct Pending {
    std::uint32_t node;
    std::size_t lo, hi, depth;  // ids[lo, hi) share the node's path of length depth
  };
  trie.nodes.emplace_back();
  trie.child_byte.push_back(0);
  std::vector<Pending> queue{{0, 0, ids.size(), 0}};
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const Pending p = queue[q];
    std::size_t i = p.lo;
    trie.nodes[p.node].first_token = static_cast<std::uint32_t>(trie.tokens.size());
    while (i < p.hi && tokens[ids[i]].size() == p.depth) trie.tokens.push_back(ids[i++]);  // shorter strings sort first
    trie.nodes[p.node].num_tokens = static_cast<std::uint32_t>(trie.tokens.size()) - trie.nodes[p.node].first_token;
    trie.nodes[p.node].first_child = static_cast<std::uint32_t>(trie.nodes.size());
    while (i < p.hi) {
      const unsigned char b = static_cast<unsigned char>(tokens[ids[i]][p.depth]);
      std::size_t j = i;
      while (j < p.hi && static_cast<unsigned char>(tokens[ids[j]][p.depth]) == b) ++j;
      const auto child = static_cast<std::uint32_t>(trie.nodes.size());
      trie.nodes.emplace_back();
      trie.child_byte.push_back(b);
      queue.push_back({child, i, j, p.depth + 1});
      i = j;
    }
    trie.nodes[p.node].num_children = static_cast<std::uint32_t>(trie.nodes.size()) - trie.nodes[p.node].first_child;
  }
  return trie;
}

}  // namespace

struct Vocabulary::Body {
  std::vector<std::string> tokens;
  std::vector<bool> special;
  int eos = 0;
  std::uint64_t fingerprint = 0;
  VocabTrie trie;
};

Vocabulary::Vocabulary(std::vector<std::string> tokens, std::vector<bool> special, int eos_id) {
  if (tokens.size() != special.size())
    throw Error("vocabulary: " + std::to_string(tokens.size()) + " tokens but " + std::to_string(special.size()) +
                " special flags");
  if (eos_id < 0 || eos_id >= static_cast<int>(tokens.size()))
    throw Error("vocabulary: eos id " + std::to_string(eos_id) + " is not among the " + std::to_string(tokens.size()) +
                " tokens");
  auto body = std::make_shared<Body>();
  std::uint64_t h = fnv1a(std::to_string(tokens.size()) + ":" + std::to_string(eos_id));
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    h = fnv1a(std::to_string(tokens[i].size()) + (special[i] ? "s" : "n"), h);  // length-prefixed: no ambiguity
    h = fnv1a(tokens[i], h);
  }
  body->fingerprint = h;
  body->trie = build_trie(tokens, special, eos_id);
  body->tokens = std::move(tokens);
  body->special = std::move(special);
  body->eos = eos_id;
  body_ = std::move(body);
}

Vocabulary Vocabulary::byte_level() {
  std::vector<std::string> tokens;
  for (int b = 0; b < 256; ++b) tokens.emplace_back(1, static_cast<char>(b));
  tokens.emplace_back();
  std::vector<bool> special(257, false);
  special[256] = true;
  return Vocabulary(std::move(tokens), std::move(special), 256);
}

Vocabulary Vocabulary::from_tokenizer(const text::Tokenizer& tokenizer) {
  const int n = tokenizer.vocab_size();
  std::vector<std::string> tokens(n);
  std::vector<bool> special(n);
  for (int id = 0; id < n; ++id) {
    tokens[id] = tokenizer.token_bytes(id);
    special[id] = tokenizer.is_special(id);
  }
  if (tokenizer.eos_id() < 0) throw Error("vocabulary: tokenizer '" + tokenizer.path() + "' has no EOS token");
  return Vocabulary(std::move(tokens), std::move(special), tokenizer.eos_id());
}

int Vocabulary::size() const { return static_cast<int>(body_->tokens.size()); }
const std::string& Vocabulary::bytes(int id) const { return body_->tokens.at(id); }
bool Vocabulary::is_special(int id) const { return body_->special.at(id); }
int Vocabulary::eos_id() const { return body_->eos; }
std::uint64_t Vocabulary::fingerprint() const { return body_->fingerprint; }
const VocabTrie& Vocabulary::trie() const { return body_->trie; }

std::vector<int> longest_match_tokens(const Vocabulary& vocabulary, std::string_view text) {
  const VocabTrie& trie = vocabulary.trie();
  std::vector<int> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::uint32_t node = 0;
    int best = -1;
    std::size_t best_end = pos;
    for (std::size_t i = pos; i < text.size(); ++i) {
      const VocabTrie::Node& nd = trie.nodes[node];
      std::uint32_t next = 0;
      for (std::uint32_t c = nd.first_child; c < nd.first_child + nd.num_children; ++c)
        if (trie.child_byte[c] == static_cast<unsigned char>(text[i])) {
          next = c;
          break;
        }
      if (next == 0) break;
      node = next;
      if (trie.nodes[node].num_tokens > 0) {
        best = trie.tokens[trie.nodes[node].first_token];
        best_end = i + 1;
      }
    }
    if (best < 0) throw Error("longest_match_tokens: no token starts with the byte at offset " + std::to_string(pos));
    out.push_back(best);
    pos = best_end;
  }
  return out;
}

}  // namespace falcon::decoding
