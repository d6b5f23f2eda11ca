#pragma once
// The safetensors file format (https://github.com/huggingface/safetensors), read and written
// without the Python package. The header (layout, checks) is falcon/core/safetensors_header.h,
// free of LibTorch; this file turns its entries into tensors and writes files. Files are
// untrusted input: every inconsistency is one falcon::Error naming the file and the tensor,
// never an out-of-bounds read.
#include <cstdint>
#include <map>
#include <string>

#include "falcon/core/torch/shim.h"

namespace falcon::model {

// Ordered by name (the order the header lists them and write_safetensors lays out their data).
using TensorMap = std::map<std::string, torch::Tensor>;
using Metadata = std::map<std::string, std::string>;

// All tensors, on the CPU, contiguous, each owning its memory (copied out of a read-only mmap of
// the file, so tensors outlive the mapping and are writable). Dtypes: F64 F32 F16 BF16 I64 I32
// I16 I8 U8 BOOL. Throws falcon::Error on an unreadable or malformed file.
TensorMap read_safetensors(const std::string& path);

// The "__metadata__" map (empty when absent). Validates the whole header like read_safetensors,
// but copies no tensor data.
Metadata read_safetensors_metadata(const std::string& path);

// Writes `tensors` (CPU, any supported dtype; non-contiguous ones are made contiguous) in name
// order, metadata under "__metadata__" (omitted when empty). Atomic: a temporary file in the same
// directory is written, fsynced and renamed over `path`, so readers see the old file or the new one.
void write_safetensors(const std::string& path, const TensorMap& tensors, const Metadata& metadata = {});

// The header JSON write_safetensors puts in a file for these tensors, unpadded (for tests and tools).
std::string safetensors_header_json(const TensorMap& tensors, const Metadata& metadata);

}  // namespace falcon::model
