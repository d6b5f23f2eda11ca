#include "falcon/core/safetensors_header.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <set>

#include <nlohmann/json.hpp>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "safetensors data is little-endian; this reader copies bytes as-is and needs a little-endian host"
#endif

namespace falcon {

Error safetensors_file_error(const std::string& path, const std::string& what) {
  return Error("safetensors file '" + path + "': " + what);
}

Error safetensors_tensor_error(const std::string& path, const std::string& tensor, const std::string& what) {
  return Error("safetensors file '" + path + "': tensor '" + tensor + "': " + what);
}

const std::vector<SafetensorsDtype>& safetensors_dtypes() {
  static const std::vector<SafetensorsDtype> dtypes = {{"F64", 8}, {"F32", 4}, {"F16", 2}, {"BF16", 2}, {"I64", 8},
                                                       {"I32", 4}, {"I16", 2}, {"I8", 1},  {"U8", 1},   {"BOOL", 1}};
  return dtypes;
}

std::string safetensors_dtype_names() {
  std::string s;
  for (const auto& d : safetensors_dtypes()) s += std::string(s.empty() ? "" : " ") + d.name;
  return s;
}

namespace {

using nlohmann::json;

const SafetensorsDtype* dtype_by_name(const std::string& name) {
  for (const auto& d : safetensors_dtypes())
    if (name == d.name) return &d;
  return nullptr;
}

Error file_error(const std::string& path, const std::string& what) { return safetensors_file_error(path, what); }
Error tensor_error(const std::string& path, const std::string& tensor, const std::string& what) {
  return safetensors_tensor_error(path, tensor, what);
}

constexpr std::size_t kMaxRank = 64;
constexpr int kMaxJsonDepth = 16;  // the format needs 3; deep nesting would recurse in json's destructor

// Rejects JSON nested deeper than kMaxJsonDepth (a cheap scan that skips strings).
void check_nesting(const std::string& path, const char* text, std::size_t n) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth) throw file_error(path, "header JSON is nested too deeply");
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
}

std::uint64_t get_u64(const json& v, bool& ok) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(v.get<std::int64_t>());
  ok = false;
  return 0;
}

SafetensorsEntry parse_entry(const std::string& path, const std::string& name, const json& v, std::uint64_t data_size) {
  if (!v.is_object()) throw tensor_error(path, name, "header entry is not a JSON object");
  for (const auto& [key, _] : v.items())
    if (key != "dtype" && key != "shape" && key != "data_offsets")
      throw tensor_error(path, name, "unexpected header field '" + key + "'");
  SafetensorsEntry e;
  e.name = name;

  const auto dt = v.find("dtype");
  if (dt == v.end() || !dt->is_string()) throw tensor_error(path, name, "missing or non-string \"dtype\"");
  e.dtype = dtype_by_name(dt->get<std::string>());
  if (e.dtype == nullptr)
    throw tensor_error(path, name, "unknown dtype '" + dt->get<std::string>() + "' (supported: " + safetensors_dtype_names() + ")");

  const auto sh = v.find("shape");
  if (sh == v.end() || !sh->is_array()) throw tensor_error(path, name, "missing or non-array \"shape\"");
  if (sh->size() > kMaxRank) throw tensor_error(path, name, "shape has more than " + std::to_string(kMaxRank) + " dimensions");
  // Strides are products of max(dim, 1), so those must fit in int64 even when a dimension is 0.
  std::uint64_t span = 1;
  bool empty = false;
  for (const auto& d : *sh) {
    bool ok = true;
    const std::uint64_t dim = get_u64(d, ok);
    if (!ok) throw tensor_error(path, name, "shape " + sh->dump() + " has a dimension that is not a non-negative integer");
    if (dim > static_cast<std::uint64_t>(INT64_MAX)) throw tensor_error(path, name, "shape " + sh->dump() + " has a huge dimension");
    e.shape.push_back(static_cast<std::int64_t>(dim));
    empty = empty || dim == 0;
    if (__builtin_mul_overflow(span, std::max<std::uint64_t>(dim, 1), &span) || span > static_cast<std::uint64_t>(INT64_MAX))
      throw tensor_error(path, name, "shape " + sh->dump() + " has more elements than fit in 64 bits");
  }
  const std::uint64_t numel = empty ? 0 : span;
  std::uint64_t nbytes = 0;
  if (__builtin_mul_overflow(numel, e.dtype->size, &nbytes))
    throw tensor_error(path, name, "shape " + sh->dump() + " is too large in bytes");

  const auto off = v.find("data_offsets");
  if (off == v.end() || !off->is_array() || off->size() != 2)
    throw tensor_error(path, name, "\"data_offsets\" must be an array of two integers");
  bool ok = true;
  e.begin = get_u64((*off)[0], ok);
  e.end = get_u64((*off)[1], ok);
  if (!ok) throw tensor_error(path, name, "\"data_offsets\" " + off->dump() + " are not two non-negative integers");
  if (e.begin > e.end) throw tensor_error(path, name, "\"data_offsets\" " + off->dump() + " are decreasing");
  if (e.end > data_size)
    throw tensor_error(path, name, "\"data_offsets\" " + off->dump() + " run past the data area (" +
                                       std::to_string(data_size) + " bytes)");
  if (e.end - e.begin != nbytes)
    throw tensor_error(path, name, "\"data_offsets\" " + off->dump() + " span " + std::to_string(e.end - e.begin) +
                                       " bytes but shape " + sh->dump() + " of " + e.dtype->name + " needs " +
                                       std::to_string(nbytes));
  return e;
}

}  // namespace

SafetensorsHeader parse_safetensors_header(const unsigned char* bytes, std::uint64_t size, const std::string& path) {
  if (size < 8)
    throw file_error(path, "file is " + std::to_string(size) + " bytes, shorter than the 8-byte header length");
  std::uint64_t n = 0;
  std::memcpy(&n, bytes, 8);  // little-endian host (checked at compile time)
  if (n > kMaxSafetensorsHeaderBytes)
    throw file_error(path, "header length " + std::to_string(n) + " exceeds the " +
                               std::to_string(kMaxSafetensorsHeaderBytes) + "-byte limit");
  if (n > size - 8)
    throw file_error(path, "header length " + std::to_string(n) + " runs past the end of the " +
                               std::to_string(size) + "-byte file");
  const char* text = reinterpret_cast<const char*>(bytes + 8);
  check_nesting(path, text, n);

  // nlohmann::json keeps the last of duplicate keys silently; collect top-level keys to see them.
  std::set<std::string> seen;
  std::string duplicate;
  const json::parser_callback_t cb = [&](int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::key && depth == 1 && parsed.is_string()) {
      const auto& key = parsed.get_ref<const std::string&>();
      if (!seen.insert(key).second && duplicate.empty()) duplicate = key;
    }
    return true;
  };
  json header = json::parse(text, text + n, cb, /*allow_exceptions=*/false);
  if (header.is_discarded()) throw file_error(path, "header is not valid JSON");
  if (!header.is_object()) throw file_error(path, "header JSON is not an object");
  if (!duplicate.empty()) throw tensor_error(path, duplicate, "name appears more than once in the header");

  SafetensorsHeader h;
  h.data_start = 8 + n;
  const std::uint64_t data_size = size - h.data_start;
  for (const auto& [name, v] : header.items()) {
    if (name == "__metadata__") {
      if (!v.is_object()) throw file_error(path, "\"__metadata__\" is not a JSON object");
      for (const auto& [k, s] : v.items()) {
        if (!s.is_string()) throw file_error(path, "\"__metadata__\" value for '" + k + "' is not a string");
        h.metadata.emplace(k, s.get<std::string>());
      }
      continue;
    }
    h.entries.push_back(parse_entry(path, name, v, data_size));
  }

  // The data area must be covered exactly: no overlaps, no holes, nothing trailing (as the spec says).
  std::vector<const SafetensorsEntry*> by_offset;
  for (const auto& e : h.entries) by_offset.push_back(&e);
  std::sort(by_offset.begin(), by_offset.end(), [](const SafetensorsEntry* a, const SafetensorsEntry* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  std::uint64_t cursor = 0;
  const SafetensorsEntry* prev = nullptr;
  for (const SafetensorsEntry* e : by_offset) {
    if (e->begin < cursor)
      throw tensor_error(path, e->name, "data [" + std::to_string(e->begin) + ", " + std::to_string(e->end) +
                                            ") overlaps tensor '" + prev->name + "'");
    if (e->begin > cursor)
      throw tensor_error(path, e->name, "data starts at " + std::to_string(e->begin) + " leaving a hole after byte " +
                                            std::to_string(cursor) + " of the data area");
    cursor = e->end;
    prev = e;
  }
  if (cursor != data_size)
    throw file_error(path, "data area is " + std::to_string(data_size) + " bytes but the tensors cover " +
                               std::to_string(cursor) + (prev ? " (last: '" + prev->name + "')" : std::string()));
  return h;
}

}  // namespace falcon
