#pragma once
// The body of the benchmark-file fuzzer (TSPLIB, CVRPLIB, OPLib, Tsiligirides/Chao, Taillard,
// JSSP, DIMACS graphs), shared by the libFuzzer binary and the deterministic replay in the test
// suite. Byte 0 picks the reader, the rest is the file. A reader must return an instance or throw
// falcon::Error naming the file; anything else aborts (the fuzzer's failure signal), and so does
// an instance that breaks the chain after it: its prompt, and repair of an empty answer into a
// feasible solution.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace falcon::fuzz {

struct InstanceReader {
  const char* problem;
  const char* extension;         // the readers choose the format by it
  const char* benchmark_folder;  // where ../shared/benchmarks keeps such files (the replay's seeds)
};

// Every reader the fuzzer exercises, in the order byte 0 selects them.
const std::vector<InstanceReader>& instance_readers();

// Runs one input through its reader and the checks; true when the reader accepted the file.
bool check_instance_file(const std::uint8_t* data, std::size_t size);
int instance_file_one_input(const std::uint8_t* data, std::size_t size);  // libFuzzer's: always 0

}  // namespace falcon::fuzz
