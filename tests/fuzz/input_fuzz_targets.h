#pragma once
// The bodies of the fuzz targets for the files a user hands the programs, shared by the libFuzzer
// binaries (tests/fuzz, clang) and the deterministic replays in the ordinary test suite. Each
// takes the raw bytes of one file; the reader must accept it or throw falcon::Error, and an
// accepted file must then work as the programs use it. Anything else aborts (the fuzzer's failure
// signal), with a line naming what broke.
//   config      YAML configs: byte 0 % 3 picks the reader (datagen, eval, training recipe), the rest is the file
//   tokenizer   a SentencePiece tokenizer.model (protobuf)
//   grammar     a BNF grammar file, compiled to a byte automaton within limits
//   dataset     an HDF5 dataset file, every record read and verified
//   safetensors a checkpoint's header and tensor table
#include <cstddef>
#include <cstdint>
#include <string>

namespace falcon::fuzz {

int config_one_input(const std::uint8_t* data, std::size_t size);
int tokenizer_model_one_input(const std::uint8_t* data, std::size_t size);
int grammar_one_input(const std::uint8_t* data, std::size_t size);
int dataset_one_input(const std::uint8_t* data, std::size_t size);
// Starts the dataset target's probe server (dataset_fuzz_target.cpp); call it while the process is
// small (libFuzzer's LLVMFuzzerInitialize). Without it each input forks this whole process.
void dataset_fuzz_start();
int safetensors_one_input(const std::uint8_t* data, std::size_t size);

// The shared failure: prints "<target>: <what>" and aborts.
[[noreturn]] void fuzz_failure(const std::string& target, const std::string& what);
// A per-process scratch file holding `size` bytes, for readers that take a path.
std::string write_scratch_file(const std::string& name, const std::uint8_t* data, std::size_t size);

}  // namespace falcon::fuzz
