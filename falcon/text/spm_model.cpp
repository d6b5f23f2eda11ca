#include "falcon/text/spm_model.h"

#include "falcon/core/error.h"
#include "falcon/text/wire_reader.h"

namespace falcon::text {
namespace {

// Field numbers of src/sentencepiece_model.proto.
namespace model_proto {
constexpr std::uint32_t kPieces = 1, kTrainerSpec = 2, kNormalizerSpec = 3, kDenormalizerSpec = 5;
}
namespace piece_proto {
constexpr std::uint32_t kPiece = 1, kScore = 2, kType = 3;
}
namespace trainer_proto {
constexpr std::uint32_t kModelType = 3, kTreatWhitespaceAsSuffix = 24, kSplitDigits = 25, kByteFallback = 35,
                        kUnkSurface = 44, kUnkPiece = 45, kBosPiece = 46, kEosPiece = 47, kPadPiece = 48;
}
namespace normalizer_proto {
constexpr std::uint32_t kName = 1, kPrecompiledCharsmap = 2, kAddDummyPrefix = 3, kRemoveExtraWhitespaces = 4,
                        kEscapeWhitespaces = 5;
}

SpmPiece parse_piece(const WireField& message, const std::string& name) {
  SpmPiece piece;
  WireReader reader(wire_bytes(message, name), message.payload_offset);
  while (auto field = reader.next()) {
    switch (field->number) {
      case piece_proto::kPiece: piece.piece = std::string(wire_bytes(*field, name + ".piece")); break;
      case piece_proto::kScore: piece.score = wire_float(*field, name + ".score"); break;
      case piece_proto::kType: {
        const std::int32_t type = wire_int32(*field, name + ".type");
        if (type < 1 || type > 6)
          throw Error(name + ".type is " + std::to_string(type) + ", not a known piece type (1..6)");
        piece.type = static_cast<PieceType>(type);
        break;
      }
      default: break;  // extensions and fields of later versions
    }
  }
  return piece;
}

// SentencePiece treats an empty special-piece name as the default one.
void set_piece_name(const WireField& field, const std::string& name, std::string& out) {
  auto value = wire_bytes(field, "trainer_spec." + name);
  if (!value.empty()) out = std::string(value);
}

void parse_trainer_spec(const WireField& message, SpmModel& model) {
  WireReader reader(wire_bytes(message, "trainer_spec"), message.payload_offset);
  while (auto field = reader.next()) {
    switch (field->number) {
      case trainer_proto::kModelType: {
        const std::int32_t type = wire_int32(*field, "trainer_spec.model_type");
        if (type < 1 || type > 4)
          throw Error("trainer_spec.model_type is " + std::to_string(type) + ", not a known model type (1..4)");
        model.model_type = static_cast<ModelType>(type);
        break;
      }
      case trainer_proto::kTreatWhitespaceAsSuffix:
        model.treat_whitespace_as_suffix = wire_bool(*field, "trainer_spec.treat_whitespace_as_suffix");
        break;
      case trainer_proto::kSplitDigits: model.split_digits = wire_bool(*field, "trainer_spec.split_digits"); break;
      case trainer_proto::kByteFallback: model.byte_fallback = wire_bool(*field, "trainer_spec.byte_fallback"); break;
      case trainer_proto::kUnkSurface:
        model.unk_surface = std::string(wire_bytes(*field, "trainer_spec.unk_surface"));
        break;
      case trainer_proto::kUnkPiece: set_piece_name(*field, "unk_piece", model.unk_piece); break;
      case trainer_proto::kBosPiece: set_piece_name(*field, "bos_piece", model.bos_piece); break;
      case trainer_proto::kEosPiece: set_piece_name(*field, "eos_piece", model.eos_piece); break;
      case trainer_proto::kPadPiece: set_piece_name(*field, "pad_piece", model.pad_piece); break;
      default: break;  // training-only settings
    }
  }
}

// normalizer_spec (3) or denormalizer_spec (5); `name` says which.
void parse_normalizer_spec(const WireField& message, const std::string& name, SpmModel& model) {
  const bool denormalizer = message.number == model_proto::kDenormalizerSpec;
  WireReader reader(wire_bytes(message, name), message.payload_offset);
  while (auto field = reader.next()) {
    switch (field->number) {
      case normalizer_proto::kName: {
        auto value = wire_bytes(*field, name + ".name");
        if (!denormalizer) model.normalizer_name = std::string(value);
        break;
      }
      case normalizer_proto::kPrecompiledCharsmap: {
        const std::size_t size = wire_bytes(*field, name + ".precompiled_charsmap").size();
        (denormalizer ? model.denormalizer_charsmap_size : model.precompiled_charsmap_size) = size;
        break;
      }
      case normalizer_proto::kAddDummyPrefix: {
        const bool value = wire_bool(*field, name + ".add_dummy_prefix");
        if (!denormalizer) model.add_dummy_prefix = value;
        break;
      }
      case normalizer_proto::kRemoveExtraWhitespaces: {
        const bool value = wire_bool(*field, name + ".remove_extra_whitespaces");
        if (!denormalizer) model.remove_extra_whitespaces = value;
        break;
      }
      case normalizer_proto::kEscapeWhitespaces: {
        const bool value = wire_bool(*field, name + ".escape_whitespaces");
        if (!denormalizer) model.escape_whitespaces = value;
        break;
      }
      default: break;
    }
  }
}

}  // namespace

SpmModel parse_spm_model(std::string_view bytes, const std::string& origin) {
  const std::string prefix = "tokenizer: '" + origin + "' is not a valid SentencePiece model: ";
  SpmModel model;
  try {
    if (bytes.empty()) throw Error("the file is empty");
    WireReader reader(bytes);
    while (auto field = reader.next()) {
      switch (field->number) {
        case model_proto::kPieces:
          model.pieces.push_back(parse_piece(*field, "pieces[" + std::to_string(model.pieces.size()) + "]"));
          break;
        case model_proto::kTrainerSpec: parse_trainer_spec(*field, model); break;
        case model_proto::kNormalizerSpec: parse_normalizer_spec(*field, "normalizer_spec", model); break;
        case model_proto::kDenormalizerSpec: parse_normalizer_spec(*field, "denormalizer_spec", model); break;
        default: break;  // self_test_data and extensions
      }
    }
  } catch (const Error& e) {
    throw Error(prefix + e.what());
  }
  return model;
}

int byte_piece_value(std::string_view piece) {
  auto hex = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (piece.size() != 6 || piece.substr(0, 3) != "<0x" || piece[5] != '>') return -1;
  const int hi = hex(piece[3]), lo = hex(piece[4]);
  return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

}  // namespace falcon::text
