#pragma once
// A SentencePiece model's pieces as the segmenters look them up (src/model_interface.cc
// InitializePieces): normal, user-defined and unused pieces take part in merges and Viterbi;
// control, unknown and byte pieces are "reserved" and found only by exact lookup.
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "falcon/text/normalizer.h"
#include "falcon/text/spm_model.h"

namespace falcon::text {

// A piece of the normalised text and its id.
using Segment = std::pair<std::string_view, int>;

class SpmVocabulary {
 public:
  // Validates the pieces as SentencePiece does when it loads a model; throws falcon::Error
  // starting with "tokenizer: '<origin>' ..." when they are inconsistent.
  SpmVocabulary(SpmModel model, const std::string& origin);
  SpmVocabulary(const SpmVocabulary&) = delete;  // the maps view into model_'s strings
  SpmVocabulary& operator=(const SpmVocabulary&) = delete;

  const SpmModel& model() const { return model_; }
  int size() const { return static_cast<int>(model_.pieces.size()); }
  const SpmPiece& at(int id) const { return model_.pieces[static_cast<std::size_t>(id)]; }
  PieceType type(int id) const { return at(id).type; }
  int unk_id() const { return unk_id_; }
  const PrefixMatcher& user_symbols() const { return user_symbols_; }

  // Reserved pieces first, then the others; unk_id() when unknown (PieceToId).
  int piece_to_id(std::string_view piece) const;
  // Normal, user-defined or unused piece with this spelling, -1 if none.
  int mergeable_id(std::string_view piece) const {
    auto it = pieces_.find(piece);
    return it == pieces_.end() ? -1 : it->second;
  }
  int byte_id(unsigned char byte) const { return byte_ids_[byte]; }  // -1 without byte fallback

 private:
  SpmModel model_;
  std::unordered_map<std::string_view, int> pieces_;    // normal, user-defined, unused
  std::unordered_map<std::string_view, int> reserved_;  // control, unknown, byte
  int unk_id_ = -1;
  int byte_ids_[256];
  PrefixMatcher user_symbols_;
};

}  // namespace falcon::text
