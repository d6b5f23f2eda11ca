#pragma once
// The header of a safetensors file (https://github.com/huggingface/safetensors), read without
// LibTorch so that it can be fuzzed and checked on its own:
//
//   [8 bytes: N, little-endian u64] [N bytes: JSON header, space-padded] [data area]
//
// The header is an object: "__metadata__" -> {string: string} (optional), and for every tensor
// name -> {"dtype": "F32", "shape": [d0, ...], "data_offsets": [begin, end]}, offsets relative to
// the start of the data area. Files are untrusted input: every inconsistency is one falcon::Error
// naming the file and the tensor, never an out-of-bounds read. falcon/model/safetensors.h reads
// the tensors themselves on top of this.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "falcon/core/error.h"

namespace falcon {

// Header length cap: a larger header is rejected before anything is allocated for it.
inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100ull << 20;

struct SafetensorsDtype {
  const char* name;   // "F32"
  std::uint64_t size;  // bytes per element
};
// The dtypes read here: F64 F32 F16 BF16 I64 I32 I16 I8 U8 BOOL.
const std::vector<SafetensorsDtype>& safetensors_dtypes();
std::string safetensors_dtype_names();  // "F64 F32 ..." for error messages

struct SafetensorsEntry {
  std::string name;
  const SafetensorsDtype* dtype = nullptr;
  std::vector<std::int64_t> shape;
  std::uint64_t begin = 0, end = 0;  // relative to the data area; end - begin = numel * dtype size
};

struct SafetensorsHeader {
  std::vector<SafetensorsEntry> entries;  // sorted by name
  std::map<std::string, std::string> metadata;
  std::uint64_t data_start = 0;  // absolute offset of the data area
};

// Parses and checks the header of a file of `size` bytes at `bytes`: lengths, JSON, every entry's
// dtype, shape and offsets, and that the tensors cover the data area exactly (no overlap, no hole,
// nothing trailing). Throws falcon::Error naming `path` (and the tensor).
SafetensorsHeader parse_safetensors_header(const unsigned char* bytes, std::uint64_t size, const std::string& path);

Error safetensors_file_error(const std::string& path, const std::string& what);
Error safetensors_tensor_error(const std::string& path, const std::string& tensor, const std::string& what);

}  // namespace falcon
