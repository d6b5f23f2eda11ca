// BPE segmentation, following sentencepiece src/bpe_model.cc (Model::SampleEncode with no
// dropout) step for step, so that ties and unused pieces come out exactly as SentencePiece's.
#include <queue>
#include <unordered_map>

#include "falcon/text/segmenters.h"

namespace falcon::text {
namespace {

struct Symbol {
  int prev;
  int next;
  bool freeze;  // a user-defined symbol: never merged
  std::string_view piece;
};

struct SymbolPair {
  int left;
  int right;
  float score;
  std::size_t size;  // bytes of the merged piece; a mismatch marks a stale entry
};

// Highest score first; on equal scores the leftmost pair.
struct LowerPriority {
  bool operator()(const SymbolPair& a, const SymbolPair& b) const {
    return a.score < b.score || (a.score == b.score && a.left > b.left);
  }
};

using ReverseMerges = std::unordered_map<std::string_view, std::pair<std::string_view, std::string_view>>;

// Splits a merged unused piece back into the pair that formed it, recursively.
void resegment(const SpmVocabulary& vocab, const ReverseMerges& reverse, std::string_view piece,
               std::vector<Segment>& out) {
  const int id = vocab.piece_to_id(piece);
  if (vocab.type(id) != PieceType::kUnused) {
    out.emplace_back(piece, id);
    return;
  }
  auto it = reverse.find(piece);
  if (it == reverse.end()) {
    out.emplace_back(piece, id);
    return;
  }
  resegment(vocab, reverse, it->second.first, out);
  resegment(vocab, reverse, it->second.second, out);
}

}  // namespace

std::vector<Segment> bpe_segment(const SpmVocabulary& vocab, std::string_view normalized) {
  std::vector<Symbol> symbols;
  symbols.reserve(normalized.size());
  const PrefixMatcher& user = vocab.user_symbols();
  for (std::string_view rest = normalized; !rest.empty();) {
    std::size_t length = user.empty() ? 0 : user.match(rest);
    const bool freeze = length > 0;
    if (!freeze) length = utf8_char_length(rest);
    const int index = static_cast<int>(symbols.size());
    symbols.push_back({index - 1, rest.size() == length ? -1 : index + 1, freeze, rest.substr(0, length)});
    rest.remove_prefix(length);
  }
  if (symbols.empty()) return {};

  std::priority_queue<SymbolPair, std::vector<SymbolPair>, LowerPriority> agenda;
  ReverseMerges reverse;
  auto add_pair = [&](int left, int right) {
    if (left == -1 || right == -1 || symbols[left].freeze || symbols[right].freeze) return;
    const std::string_view piece(symbols[left].piece.data(), symbols[left].piece.size() + symbols[right].piece.size());
    const int id = vocab.mergeable_id(piece);
    if (id < 0) return;
    agenda.push({left, right, vocab.at(id).score, piece.size()});
    if (vocab.type(id) == PieceType::kUnused) reverse[piece] = {symbols[left].piece, symbols[right].piece};
  };
  for (std::size_t i = 1; i < symbols.size(); ++i) add_pair(static_cast<int>(i) - 1, static_cast<int>(i));

  while (!agenda.empty()) {
    const SymbolPair top = agenda.top();
    agenda.pop();
    Symbol& left = symbols[top.left];
    Symbol& right = symbols[top.right];
    if (left.piece.empty() || right.piece.empty() || left.piece.size() + right.piece.size() != top.size) continue;
    left.piece = std::string_view(left.piece.data(), top.size);
    left.next = right.next;
    if (right.next >= 0) symbols[right.next].prev = top.left;
    right.piece = std::string_view();
    add_pair(left.prev, top.left);
    add_pair(top.left, left.next);
  }

  std::vector<Segment> out;
  for (int index = 0; index != -1; index = symbols[index].next) resegment(vocab, reverse, symbols[index].piece, out);
  return out;
}

}  // namespace falcon::text
