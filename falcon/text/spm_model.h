#pragma once
// The parts of SentencePiece's ModelProto (src/sentencepiece_model.proto) that encoding and
// decoding depend on, read from a `tokenizer.model` without libsentencepiece. Defaults are the
// proto's own, so a field absent from the file means what it means to SentencePiece.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace falcon::text {

// ModelProto.SentencePiece.Type.
enum class PieceType : std::uint8_t {
  kNormal = 1,
  kUnknown = 2,
  kControl = 3,
  kUserDefined = 4,
  kUnused = 5,
  kByte = 6,
};

// TrainerSpec.ModelType.
enum class ModelType { kUnigram = 1, kBpe = 2, kWord = 3, kChar = 4 };

struct SpmPiece {
  std::string piece;
  float score = 0;
  PieceType type = PieceType::kNormal;
};

struct SpmModel {
  std::vector<SpmPiece> pieces;
  // TrainerSpec.
  ModelType model_type = ModelType::kUnigram;
  bool byte_fallback = false;
  bool treat_whitespace_as_suffix = false;
  bool split_digits = false;  // informational: a training constraint, encoding does not use it
  std::string unk_piece = "<unk>", bos_piece = "<s>", eos_piece = "</s>", pad_piece = "<pad>";
  std::optional<std::string> unk_surface;  // decode of <unk>; SentencePiece's default when absent
  // NormalizerSpec.
  std::string normalizer_name;
  std::size_t precompiled_charsmap_size = 0;
  bool add_dummy_prefix = true;
  bool remove_extra_whitespaces = true;
  bool escape_whitespaces = true;
  // ModelProto.denormalizer_spec.
  std::size_t denormalizer_charsmap_size = 0;
};

// Parses the serialised ModelProto in `bytes`. Throws one falcon::Error starting with
// "tokenizer: '<origin>' is not a valid SentencePiece model: " and naming the field or byte
// offset when the bytes are truncated or malformed. Checks wire format only; semantic checks
// (pieces, byte pieces, supported normalisation) are the tokenizer's.
SpmModel parse_spm_model(std::string_view bytes, const std::string& origin);

// "<0x0A>" -> 10; -1 unless exactly SentencePiece's spelling (upper-case hex, two digits).
int byte_piece_value(std::string_view piece);

}  // namespace falcon::text
