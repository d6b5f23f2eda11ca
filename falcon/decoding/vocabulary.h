#pragma once
// What the mask compiler needs from a tokenizer: the exact bytes of every token, which ids
// are control/unknown/padding (always masked) and the end-of-sequence id. Tests use the
// byte-level vocabulary or synthetic ones; programs adapt a trained SentencePiece tokenizer.
// Copies share one immutable body, so a Vocabulary is cheap to pass around.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace falcon::text {
class Tokenizer;
}

namespace falcon::decoding {

// Every distinct non-empty byte string of the non-special tokens, as a trie whose nodes list
// the tokens spelled exactly by their path. Children of a node are contiguous.
struct VocabTrie {
  struct Node {
    std::uint32_t first_child = 0;
    std::uint32_t num_children = 0;
    std::uint32_t first_token = 0;
    std::uint32_t num_tokens = 0;
  };
  std::vector<Node> nodes;                 // nodes[0] is the root (the empty string)
  std::vector<unsigned char> child_byte;   // by node id: the byte on the edge into it
  std::vector<std::int32_t> tokens;        // token ids, grouped per node
};

class Vocabulary {
 public:
  // tokens[id] are the bytes of token id; special[id] marks control / unknown / padding tokens.
  // eos_id must be a valid id; it is masked like a special token except in accepting states.
  // Throws falcon::Error when the sizes disagree or eos_id is out of range.
  Vocabulary(std::vector<std::string> tokens, std::vector<bool> special, int eos_id);

  // Ids 0..255 are the single bytes, 256 is EOS.
  static Vocabulary byte_level();
  static Vocabulary from_tokenizer(const text::Tokenizer& tokenizer);
  // A stand-in for a large LLM vocabulary (tests, benchmarks): pad/unk/bos/eos (ids 0-3, no
  // bytes), the 256 single bytes, the solution keywords and separators, the numbers
  // 0..9999 alone, then with a leading space, a trailing comma, a leading ", ", ... (form by form),
  // then seeded random byte strings, until `size` tokens (at least 300).
  static Vocabulary synthetic(int size, std::uint64_t seed);

  int size() const;
  const std::string& bytes(int id) const;
  bool is_special(int id) const;
  int eos_id() const;
  // FNV-1a over every token's bytes, the special flags and eos: the cache key, so two
  // vocabularies with the same content share compiled automata.
  std::uint64_t fingerprint() const;
  const VocabTrie& trie() const;

 private:
  struct Body;
  std::shared_ptr<const Body> body_;
};

// Greedy longest-match tokenization over the vocabulary trie: a stand-in encoder for
// vocabularies without a tokenizer model (benchmarks, tests). Throws falcon::Error naming the
// offset when some byte starts no token.
std::vector<int> longest_match_tokens(const Vocabulary& vocabulary, std::string_view text);

}  // namespace falcon::decoding
