#include "falcon/text/tokenizer.h"

#include <fstream>
#include <optional>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/text/normalizer.h"
#include "falcon/text/segmenters.h"
#include "falcon/text/spm_model.h"
#include "falcon/text/vocabulary.h"

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

struct Tokenizer::Impl {
  Impl(SpmModel model, std::string origin)
      : path(std::move(origin)),
        vocab(check_supported(std::move(model), path), path),
        normalizer({vocab.model().add_dummy_prefix, vocab.model().remove_extra_whitespaces,
                    vocab.model().escape_whitespaces, vocab.model().treat_whitespace_as_suffix},
                   &vocab.user_symbols()) {
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

  std::vector<Segment> segment(std::string_view normalized) const {
    return unigram ? unigram->segment(normalized) : bpe_segment(vocab, normalized);
  }
  void check_id(int id) const {
    if (id < 0 || id >= vocab.size())
      throw Error("tokenizer: id " + std::to_string(id) + " out of range [0, " + std::to_string(vocab.size()) + ")");
  }

  std::string path;
  Vocabulary vocab;
  Normalizer normalizer;
  std::optional<UnigramSegmenter> unigram;
  std::vector<std::string> bytes;
  std::string unk_surface;
  int pad = -1, bos = -1, eos = -1, unk = -1;
};

Tokenizer::Tokenizer(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
Tokenizer::Tokenizer(Tokenizer&&) noexcept = default;
Tokenizer& Tokenizer::operator=(Tokenizer&&) noexcept = default;
Tokenizer::~Tokenizer() = default;

Tokenizer Tokenizer::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("tokenizer: cannot open '" + path + "'");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw Error("tokenizer: cannot read '" + path + "'");
  return from_bytes(bytes.str(), path);
}

Tokenizer Tokenizer::from_bytes(std::string_view bytes, const std::string& origin) {
  return Tokenizer(std::make_shared<const Impl>(parse_spm_model(bytes, origin), origin));
}

// SentencePieceProcessor::Encode + PopulateSentencePieceText.
std::vector<int> Tokenizer::encode(std::string_view text) const {
  const Impl& t = *impl_;
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

std::string Tokenizer::decode(const std::vector<int>& ids) const {
  const Impl& t = *impl_;
  const SpmModel& m = t.vocab.model();
  // SentencePiece strips the dummy prefix's U+2581 from the first piece; with whitespace
  // removal on, from every piece until some text has been produced.
  const bool strip_leading = m.add_dummy_prefix || m.remove_extra_whitespaces;
  bool at_start = true;
  std::string text;
  for (int id : ids) {
    t.check_id(id);
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

int Tokenizer::vocab_size() const { return impl_->vocab.size(); }
const std::string& Tokenizer::piece(int id) const {
  impl_->check_id(id);
  return impl_->vocab.at(id).piece;
}
int Tokenizer::id(std::string_view piece) const { return impl_->vocab.piece_to_id(piece); }
const std::string& Tokenizer::token_bytes(int id) const {
  impl_->check_id(id);
  return impl_->bytes[static_cast<std::size_t>(id)];
}
bool Tokenizer::is_special(int id) const {
  impl_->check_id(id);
  const PieceType type = impl_->vocab.type(id);
  return type == PieceType::kControl || type == PieceType::kUnknown;
}
int Tokenizer::pad_id() const { return impl_->pad; }
int Tokenizer::bos_id() const { return impl_->bos; }
int Tokenizer::eos_id() const { return impl_->eos; }
int Tokenizer::unk_id() const { return impl_->unk; }
const std::string& Tokenizer::path() const { return impl_->path; }

}  // namespace falcon::text
