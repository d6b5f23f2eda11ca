#pragma once
// A minimal reader of the protobuf wire format, enough for SentencePiece's ModelProto without
// linking libprotobuf (whose copy inside libsentencepiece crashes LibTorch processes). Input is
// untrusted: every read is bounds-checked and anything malformed throws falcon::Error naming the
// byte offset and what is wrong.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace falcon::text {

enum class WireType { kVarint = 0, kFixed64 = 1, kBytes = 2, kFixed32 = 5 };

struct WireField {
  std::uint32_t number = 0;
  WireType type = WireType::kVarint;
  std::uint64_t value = 0;   // kVarint, kFixed64, kFixed32 (little-endian, zero-extended)
  std::string_view bytes;    // kBytes: the payload (a string or a nested message)
  std::size_t offset = 0;    // absolute byte offset of the field's tag (for messages)
  std::size_t payload_offset = 0;  // absolute byte offset of `bytes`
};

class WireReader {
 public:
  // `base_offset`: where `data` starts in the whole file, so nested messages report file offsets.
  explicit WireReader(std::string_view data, std::size_t base_offset = 0)
      : data_(data), base_(base_offset) {}

  // The next field, or nullopt at the end of the message.
  std::optional<WireField> next();

 private:
  std::uint64_t read_varint(const char* what);
  [[noreturn]] void fail(const std::string& what) const;

  std::string_view data_;
  std::size_t base_ = 0;
  std::size_t pos_ = 0;
};

// Checked conversions of a field's payload; they throw falcon::Error naming `name` (a field path
// such as "pieces[3].score") when the wire type is not the one the schema declares.
float wire_float(const WireField& field, const std::string& name);
bool wire_bool(const WireField& field, const std::string& name);
std::int32_t wire_int32(const WireField& field, const std::string& name);
std::string_view wire_bytes(const WireField& field, const std::string& name);

}  // namespace falcon::text
