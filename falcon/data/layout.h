#pragma once
// Names and chunk sizes of the HDF5 layout shared by the writer and the reader.
#include <cstdint>

namespace falcon::data::layout {

inline constexpr const char* kSolutionGroup = "solution";
inline constexpr const char* kInstanceGroup = "instance";
inline constexpr const char* kProducerVersion = "0.1.0";

// Chunk sizes in elements. Reading record i decompresses (and checksums) whole chunks, so they
// stay small enough for random access (64 KiB of doubles per flat chunk) and large enough for
// sequential blocks to cost a few microseconds per record.
inline constexpr unsigned long long kRecordChunk = 1024;
inline constexpr unsigned long long kFlatChunk = 8192;

}  // namespace falcon::data::layout
