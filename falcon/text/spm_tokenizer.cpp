// SentencePiece `tokenizer.model` behind text::Tokenizer: the same ids as libsentencepiece.
#include <optional>

#include "falcon/core/error.h"
#include "falcon/text/normalizer.h"
#include "falcon/text/segmenters.h"
#include "falcon/text/spm_model.h"
#include "falcon/text/tokenizer_impl.h"
#include "falcon/text/spm_vocabulary.h"

namespace falcon::text {

namespace {

constexpr std::string_view kDefaultUnkSurface = " \xE2\x81\x87 ";  // SentencePiece's " ⁇ "

std::string replace_meta_spaces(std::string_view piece) {
  std::string out;
  out.reserve(piece.size());
  for (std::size_t i = 0; i < piece.size();) {
    if (piece.compare(i, kMetaSpace.size(), kMetaSpace) == 0) {
      out += ' ';
      i += kMetaSpace.size();
    } else {
      out += piece[i++];
    }
  }
  return out;
}

// The bytes a token stands for (see token_bytes in the header).
std::string piece_bytes(const SpmPiece& p) {
  switch (p.type) {
    case PieceType::kControl:
    case PieceType::kUnknown:
    case PieceType::kUnused: return "";
    case PieceType::kByte: return std::string(1, static_cast<char>(byte_piece_value(p.piece)));
    default: return replace_meta_spaces(p.piece);
  }
}

// Rejects what this implementation cannot reproduce exactly.
SpmModel check_supported(SpmModel model, const std::string& origin) {
  const std::string prefix = "tokenizer: '" + origin + "': ";
  if (model.model_type != ModelType::kBpe && model.model_type != ModelType::kUnigram)
    throw Error(prefix + "model type " + (model.model_type == ModelType::kWord ? "word" : "char") +
                " is not supported (only bpe and unigram); train a bpe tokenizer");
  if (model.precompiled_charsmap_size > 0)
    throw Error(prefix + "needs the precompiled normalisation rule '" + model.normalizer_name +
                "' (an NFKC-style character map), which falcon's tokenizer does not implement; use a model "
                "trained with normalization_rule_name=identity");
  if (model.denormalizer_charsmap_size > 0)
    throw Error(prefix + "needs a precompiled denormalisation rule, which falcon's tokenizer does not implement");
  return model;
}

}  // namespace

class SpmTokenizer final : public Tokenizer::Impl {
 public:
  SpmTokenizer(SpmModel model, const std::string& origin)
      : vocab(check_supported(std::move(model), origin), origin),
        normalizer({vocab.model().add_dummy_prefix, vocab.model().remove_extra_whitespaces,
                    vocab.model().escape_whitespaces, vocab.model().treat_whitespace_as_suffix},
                   &vocab.user_symbols()) {
    path = origin;
    const SpmModel& m = vocab.model();
    if (m.model_type == ModelType::kUnigram) unigram.emplace(vocab);
    bytes.reserve(static_cast<std::size_t>(vocab.size()));
    for (int id = 0; id < vocab.size(); ++id) bytes.push_back(piece_bytes(vocab.at(id)));
    unk_surface = m.unk_surface ? *m.unk_surface : std::string(kDefaultUnkSurface);
    auto special = [&](const std::string& name, PieceType type) {
      const int id = vocab.piece_to_id(name);
      return vocab.type(id) == type ? id : -1;
    };
    pad = special(m.pad_piece, PieceType::kControl);
    bos = special(m.bos_piece, PieceType::kControl);
    eos = special(m.eos_piece, PieceType::kControl);
    unk = special(m.unk_piece, PieceType::kUnknown);
  }

  std::vector<int> encode(std::string_view text) const override;
  std::string decode(const std::vector<int>& ids) const override;
  int vocab_size() const override { return vocab.size(); }
  const std::string& piece(int id) const override { return vocab.at(id).piece; }
  int id(std::string_view piece) const override { return vocab.piece_to_id(piece); }
  const std::string& token_bytes(int id) const override { return bytes[static_cast<std::size_t>(id)]; }
  bool is_special(int id) const override {
    const PieceType type = vocab.type(id);
    return type == PieceType::kControl || type == PieceType::kUnknown;
  }

 private:
  std::vector<Segment> segment(std::string_view normalized) const {
    return unigram ? unigram->segment(normalized) : bpe_segment(vocab, normalized);
  }

  SpmVocabulary vocab;
  Normalizer normalizer;
  std::optional<UnigramSegmenter> unigram;
  std::vector<std::string> bytes;
  std::string unk_surface;
};

// SentencePieceProcessor::Encode + PopulateSentencePieceText.
std::vector<int> SpmTokenizer::encode(std::string_view text) const {
  const SpmTokenizer& t = *this;
  const std::string normalized = t.normalizer.normalize(text);
  const std::vector<Segment> segments = t.segment(normalized);
  std::vector<int> ids;
  ids.reserve(segments.size());
  bool prev_unknown = false;
  for (const auto& [piece, id] : segments) {
    const PieceType type = t.vocab.type(id);
    if (type == PieceType::kControl)  // SentencePiece fails the same way ("not all consumed")
      throw Error("tokenizer: '" + t.path + "': text segments into control piece '" + t.vocab.at(id).piece +
                  "', which SentencePiece cannot encode either");
    const bool unknown = type == PieceType::kUnknown;
    if (unknown && t.vocab.model().byte_fallback) {
      for (char c : piece) ids.push_back(t.vocab.byte_id(static_cast<unsigned char>(c)));
    } else if (!(unknown && prev_unknown)) {  // a run of unknown pieces is one <unk>
      ids.push_back(id);
    }
    prev_unknown = unknown;
  }
  return ids;
}

std::string SpmTokenizer::decode(const std::vector<int>& ids) const {
  const SpmTokenizer& t = *this;
  const SpmModel& m = t.vocab.model();
  // SentencePiece strips the dummy prefix's U+2581 from the first piece; with whitespace
  // removal on, from every piece until some text has been produced.
  const bool strip_leading = m.add_dummy_prefix || m.remove_extra_whitespaces;
  bool at_start = true;
  std::string text;
  for (int id : ids) {
    const SpmPiece& p = t.vocab.at(id);
    switch (p.type) {
      case PieceType::kControl: break;
      case PieceType::kUnknown: text += t.unk_surface; break;
      case PieceType::kByte: text += t.bytes[static_cast<std::size_t>(id)]; break;
      default: {
        std::string_view piece = p.piece;
        if (at_start && strip_leading && piece.substr(0, kMetaSpace.size()) == kMetaSpace) {
          piece.remove_prefix(kMetaSpace.size());
          if (!m.remove_extra_whitespaces) at_start = false;
        }
        text += replace_meta_spaces(piece);
      }
    }
    if (!text.empty()) at_start = false;
  }
  return text;
}

std::shared_ptr<const Tokenizer::Impl> make_spm_tokenizer(std::string_view model_bytes, const std::string& origin) {
  return std::make_shared<const SpmTokenizer>(parse_spm_model(model_bytes, origin), origin);
}

}  // namespace falcon::text
