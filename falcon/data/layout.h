#pragma once
// Names and chunk sizes of the HDF5 layout shared by the writer and the reader.
#include <cstdint>

namespace falcon::data::layout {

inline constexpr const char* kSolutionGroup = "solution";
inline constexpr const char* kInstanceGroup = "instance";
inline constexpr const char* kProducerVersion = "0.1.0";

// Chunk sizes in elements: one per-record column chunk covers 4096 records; flat columns
// (coordinates, edges, solution items) use 64 Ki elements, so a record's slice is usually one
// chunk and a sequential read decompresses each chunk once.
inline constexpr unsigned long long kRecordChunk = 4096;
inline constexpr unsigned long long kFlatChunk = 65536;

}  // namespace falcon::data::layout
