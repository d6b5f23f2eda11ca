#pragma once
// SentencePiece's two subword segmentations of normalised text, reproduced id for id:
// BPE (src/bpe_model.cc) and unigram Viterbi (src/unigram_model.cc, EncodeOptimized).
// Segments view into `normalized`; an id of vocab.unk_id() marks text outside the vocabulary.
#include <string_view>
#include <vector>

#include "falcon/text/byte_trie.h"
#include "falcon/text/spm_vocabulary.h"

namespace falcon::text {

// Splits into characters (user-defined symbols whole and frozen), then repeatedly merges the
// adjacent pair whose concatenation is a piece with the highest score, the leftmost on ties;
// merged unused pieces are split back into the pair that made them.
std::vector<Segment> bpe_segment(const SpmVocabulary& vocab, std::string_view normalized);

class UnigramSegmenter {
 public:
  explicit UnigramSegmenter(const SpmVocabulary& vocab);
  // The segmentation with the highest sum of piece scores; characters no piece covers cost
  // (lowest normal score - 10) each; user-defined symbols get a bonus that always wins.
  std::vector<Segment> segment(std::string_view normalized) const;

 private:
  const SpmVocabulary& vocab_;
  float min_score_;
  float max_score_;
  ByteTrie pieces_;  // the mergeable pieces (normal, user-defined, unused) -> id
};

}  // namespace falcon::text
