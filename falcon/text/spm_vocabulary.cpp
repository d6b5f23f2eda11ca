#include "falcon/text/spm_vocabulary.h"

#include <algorithm>

#include "falcon/core/error.h"

namespace falcon::text {

SpmVocabulary::SpmVocabulary(SpmModel model, const std::string& origin) : model_(std::move(model)) {
  const std::string prefix = "tokenizer: '" + origin + "': ";
  std::fill(std::begin(byte_ids_), std::end(byte_ids_), -1);
  std::vector<std::string_view> user_defined;
  for (int id = 0; id < size(); ++id) {
    const SpmPiece& p = at(id);
    const std::string name = "piece " + std::to_string(id);
    if (p.piece.empty()) throw Error(prefix + name + " is empty");
    const bool mergeable =
        p.type == PieceType::kNormal || p.type == PieceType::kUserDefined || p.type == PieceType::kUnused;
    auto& map = mergeable ? pieces_ : reserved_;
    if (auto [it, inserted] = map.emplace(p.piece, id); !inserted)
      throw Error(prefix + name + " '" + p.piece + "' is already defined as piece " + std::to_string(it->second));
    if (p.type == PieceType::kUserDefined) user_defined.push_back(p.piece);
    if (p.type == PieceType::kUnknown) {
      if (unk_id_ >= 0) throw Error(prefix + name + " is a second unknown piece (the first is " + std::to_string(unk_id_) + ")");
      unk_id_ = id;
    }
    if (p.type == PieceType::kByte) {
      if (!model_.byte_fallback) throw Error(prefix + name + " '" + p.piece + "' is a byte piece but byte_fallback is off");
      const int byte = byte_piece_value(p.piece);
      if (byte < 0) throw Error(prefix + name + " '" + p.piece + "' is a byte piece not spelled <0xNN>");
      byte_ids_[byte] = id;
    }
  }
  if (unk_id_ < 0) throw Error(prefix + "no unknown piece (<unk>) is defined");
  if (model_.byte_fallback)
    for (int b = 0; b < 256; ++b)
      if (byte_ids_[b] < 0) throw Error(prefix + "byte_fallback is on but byte piece " + std::to_string(b) + " is missing");
  user_symbols_ = PrefixMatcher(user_defined);
}

int SpmVocabulary::piece_to_id(std::string_view piece) const {
  if (auto it = reserved_.find(piece); it != reserved_.end()) return it->second;
  if (auto it = pieces_.find(piece); it != pieces_.end()) return it->second;
  return unk_id_;
}

}  // namespace falcon::text
