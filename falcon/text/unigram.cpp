// Unigram Viterbi segmentation, following sentencepiece src/unigram_model.cc
// (Model::EncodeOptimized): the best path ending at each byte position, updated in order of
// start position and then piece length, keeping the first of equal scores.
#include <algorithm>
#include <cfloat>

#include "falcon/text/segmenters.h"

namespace falcon::text {
namespace {
constexpr float kUnkPenalty = 10.0f;
}

UnigramSegmenter::UnigramSegmenter(const SpmVocabulary& vocab) : vocab_(vocab) {
  // SentencePiece starts max_score_ at FLT_MIN (the smallest positive float), not -FLT_MAX;
  // kept because the user-defined bonus depends on it.
  min_score_ = FLT_MAX;
  max_score_ = FLT_MIN;
  for (int id = 0; id < vocab.size(); ++id) {
    const SpmPiece& p = vocab.at(id);
    if (p.type == PieceType::kNormal) {
      min_score_ = std::min(min_score_, p.score);
      max_score_ = std::max(max_score_, p.score);
    }
    if (vocab.mergeable_id(p.piece) == id) pieces_.insert(p.piece, id);  // not control, unknown, byte
  }
}

std::vector<Segment> UnigramSegmenter::segment(std::string_view normalized) const {
  if (normalized.empty()) return {};
  struct BestPath {
    int id = -1;
    float score = 0;     // of the best path ending here
    int starts_at = -1;  // where its last piece starts
  };
  const int size = static_cast<int>(normalized.size());
  const float unk_score = min_score_ - kUnkPenalty;
  std::vector<BestPath> best(static_cast<std::size_t>(size) + 1);
  for (int starts_at = 0; starts_at < size;) {
    const float score_here = best[starts_at].score;
    const auto mblen = static_cast<int>(utf8_char_length(normalized.substr(starts_at)));
    bool has_single_node = false;
    int node = ByteTrie::kRoot;
    for (int length = 1; starts_at + length <= size; ++length) {
      node = pieces_.child(node, static_cast<unsigned char>(normalized[starts_at + length - 1]));
      if (node < 0) break;  // no piece continues with this byte
      const int id = pieces_.value(node);
      if (id < 0 || vocab_.type(id) == PieceType::kUnused) continue;
      BestPath& target = best[starts_at + length];
      // Same arithmetic as SentencePiece, whose `cond ? (length * max_score_ - 0.1) : score`
      // is a double: the sum is compared in double and stored as float.
      const double piece_score = vocab_.type(id) == PieceType::kUserDefined
                                     ? static_cast<float>(length) * max_score_ - 0.1
                                     : static_cast<double>(vocab_.at(id).score);
      const double candidate = piece_score + score_here;
      if (target.starts_at == -1 || candidate > target.score) {
        target.score = static_cast<float>(candidate);
        target.starts_at = starts_at;
        target.id = id;
      }
      if (length == mblen) has_single_node = true;
    }
    if (!has_single_node) {
      BestPath& target = best[starts_at + mblen];
      const float candidate = unk_score + score_here;
      if (target.starts_at == -1 || candidate > target.score) {
        target.score = candidate;
        target.starts_at = starts_at;
        target.id = vocab_.unk_id();
      }
    }
    starts_at += mblen;
  }
  std::vector<Segment> out;
  for (int ends_at = size; ends_at > 0;) {
    const BestPath& node = best[ends_at];
    out.emplace_back(normalized.substr(node.starts_at, ends_at - node.starts_at), node.id);
    ends_at = node.starts_at;
  }
  return {out.rbegin(), out.rend()};
}

}  // namespace falcon::text
