#pragma once
// Test helper: serialises a SentencePiece ModelProto (the inverse of parse_spm_model), so tests
// can build hand-made and deliberately malformed models without libsentencepiece.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "falcon/text/spm_model.h"
#include "falcon/text/wire_reader.h"

namespace falcon::text::testing {

inline void put_varint(std::string& out, std::uint64_t v) {
  for (; v >= 0x80; v >>= 7) out += static_cast<char>((v & 0x7F) | 0x80);
  out += static_cast<char>(v);
}
inline void put_tag(std::string& out, std::uint32_t number, int wire_type) {
  put_varint(out, (static_cast<std::uint64_t>(number) << 3) | static_cast<std::uint64_t>(wire_type));
}
inline void put_uint(std::string& out, std::uint32_t number, std::uint64_t value) {
  put_tag(out, number, 0);
  put_varint(out, value);
}
inline void put_int32(std::string& out, std::uint32_t number, std::int32_t value) {  // sign-extended
  put_uint(out, number, static_cast<std::uint64_t>(static_cast<std::int64_t>(value)));
}
inline void put_bytes(std::string& out, std::uint32_t number, std::string_view bytes) {
  put_tag(out, number, 2);
  put_varint(out, bytes.size());
  out += bytes;
}
inline void put_float(std::string& out, std::uint32_t number, float value) {
  put_tag(out, number, 5);
  char raw[4];
  std::memcpy(raw, &value, 4);
  out.append(raw, 4);
}

// Writes back a field as WireReader read it.
inline void put_field(std::string& out, const WireField& f) {
  put_tag(out, f.number, static_cast<int>(f.type));
  if (f.type == WireType::kVarint) put_varint(out, f.value);
  if (f.type == WireType::kFixed32 || f.type == WireType::kFixed64)
    for (int i = 0; i < (f.type == WireType::kFixed32 ? 4 : 8); ++i) out += static_cast<char>(f.value >> (8 * i));
  if (f.type == WireType::kBytes) {
    put_varint(out, f.bytes.size());
    out += f.bytes;
  }
}

// Every field parse_spm_model reads; the charsmaps are filled with zero bytes of their size.
inline std::string serialize_spm_model(const SpmModel& m) {
  std::string out;
  for (const SpmPiece& p : m.pieces) {
    std::string piece;
    put_bytes(piece, 1, p.piece);
    put_float(piece, 2, p.score);
    put_int32(piece, 3, static_cast<std::int32_t>(p.type));
    put_bytes(out, 1, piece);
  }
  std::string trainer;
  put_int32(trainer, 3, static_cast<std::int32_t>(m.model_type));
  put_uint(trainer, 24, m.treat_whitespace_as_suffix);
  put_uint(trainer, 25, m.split_digits);
  put_uint(trainer, 35, m.byte_fallback);
  if (m.unk_surface) put_bytes(trainer, 44, *m.unk_surface);
  put_bytes(trainer, 45, m.unk_piece);
  put_bytes(trainer, 46, m.bos_piece);
  put_bytes(trainer, 47, m.eos_piece);
  put_bytes(trainer, 48, m.pad_piece);
  put_bytes(out, 2, trainer);
  std::string normalizer;
  put_bytes(normalizer, 1, m.normalizer_name);
  if (m.precompiled_charsmap_size > 0) put_bytes(normalizer, 2, std::string(m.precompiled_charsmap_size, '\0'));
  put_uint(normalizer, 3, m.add_dummy_prefix);
  put_uint(normalizer, 4, m.remove_extra_whitespaces);
  put_uint(normalizer, 5, m.escape_whitespaces);
  put_bytes(out, 3, normalizer);
  if (m.denormalizer_charsmap_size > 0) {
    std::string denormalizer;
    put_bytes(denormalizer, 2, std::string(m.denormalizer_charsmap_size, '\0'));
    put_bytes(out, 5, denormalizer);
  }
  return out;
}

// A hand-made model: <pad> <unk> <s> </s> (ids 0..3), then `normal` pieces with their scores.
inline SpmModel small_model(ModelType type, std::initializer_list<std::pair<std::string, float>> normal) {
  SpmModel m;
  m.model_type = type;
  m.normalizer_name = "identity";
  m.add_dummy_prefix = false;
  m.remove_extra_whitespaces = false;
  m.pieces = {{"<pad>", 0, PieceType::kControl}, {"<unk>", 0, PieceType::kUnknown},
              {"<s>", 0, PieceType::kControl}, {"</s>", 0, PieceType::kControl}};
  for (const auto& [piece, score] : normal) m.pieces.push_back({piece, score, PieceType::kNormal});
  return m;
}

}  // namespace falcon::text::testing
