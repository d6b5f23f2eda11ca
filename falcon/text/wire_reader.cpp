#include "falcon/text/wire_reader.h"

#include <cstring>

#include "falcon/core/error.h"

namespace falcon::text {
namespace {

const char* wire_type_name(WireType type) {
  switch (type) {
    case WireType::kVarint: return "varint";
    case WireType::kFixed64: return "fixed64";
    case WireType::kBytes: return "length-delimited";
    case WireType::kFixed32: return "fixed32";
  }
  return "?";
}

void expect_type(const WireField& field, WireType type, const std::string& name) {
  if (field.type != type)
    throw Error(name + " (field " + std::to_string(field.number) + " at byte " + std::to_string(field.offset) +
                ") is " + wire_type_name(field.type) + ", expected " + wire_type_name(type));
}

}  // namespace

void WireReader::fail(const std::string& what) const {
  throw Error("byte " + std::to_string(base_ + pos_) + ": " + what);
}

std::uint64_t WireReader::read_varint(const char* what) {
  std::uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size()) fail(std::string("truncated ") + what);
    const auto byte = static_cast<unsigned char>(data_[pos_++]);
    value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  fail(std::string(what) + " longer than 10 bytes");
}

std::optional<WireField> WireReader::next() {
  if (pos_ >= data_.size()) return std::nullopt;
  WireField field;
  field.offset = base_ + pos_;
  const std::uint64_t tag = read_varint("field tag");
  const std::uint64_t number = tag >> 3;
  if (number == 0 || number > 0x1FFFFFFF) fail("invalid field number " + std::to_string(number));
  field.number = static_cast<std::uint32_t>(number);
  switch (tag & 7) {
    case 0:
      field.type = WireType::kVarint;
      field.value = read_varint("varint");
      break;
    case 1:
    case 5: {
      const std::size_t size = (tag & 7) == 1 ? 8 : 4;
      field.type = size == 8 ? WireType::kFixed64 : WireType::kFixed32;
      if (data_.size() - pos_ < size) fail("truncated fixed" + std::to_string(size * 8) + " field");
      for (std::size_t i = 0; i < size; ++i)
        field.value |= static_cast<std::uint64_t>(static_cast<unsigned char>(data_[pos_ + i])) << (8 * i);
      pos_ += size;
      break;
    }
    case 2: {
      field.type = WireType::kBytes;
      const std::uint64_t length = read_varint("length");
      if (length > data_.size() - pos_)
        fail("length " + std::to_string(length) + " of field " + std::to_string(number) + " runs past the end (" +
             std::to_string(data_.size() - pos_) + " bytes left)");
      field.payload_offset = base_ + pos_;
      field.bytes = data_.substr(pos_, static_cast<std::size_t>(length));
      pos_ += static_cast<std::size_t>(length);
      break;
    }
    default:
      fail("unsupported wire type " + std::to_string(tag & 7) + " (groups or garbage) in field " +
           std::to_string(number));
  }
  return field;
}

float wire_float(const WireField& field, const std::string& name) {
  expect_type(field, WireType::kFixed32, name);
  const auto bits = static_cast<std::uint32_t>(field.value);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

bool wire_bool(const WireField& field, const std::string& name) {
  expect_type(field, WireType::kVarint, name);
  return field.value != 0;
}

std::int32_t wire_int32(const WireField& field, const std::string& name) {
  expect_type(field, WireType::kVarint, name);
  // Negative int32 values are sign-extended to 10-byte varints; truncation gives them back.
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(field.value));
}

std::string_view wire_bytes(const WireField& field, const std::string& name) {
  expect_type(field, WireType::kBytes, name);
  return field.bytes;
}

}  // namespace falcon::text
