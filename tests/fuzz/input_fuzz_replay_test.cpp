// Short deterministic runs of the input-file fuzz targets inside the ordinary test suite (no
// clang needed): the repository's own files of each kind, as they are and mutated.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "falcon/core/config.h"
#include "falcon/core/rng.h"
#include "falcon/core/safetensors_header.h"
#include "falcon/data/datagen.h"
#include "falcon/data/datagen_spec.h"
#include "falcon/decoding/grammar.h"
#include "falcon/recipe/recipe.h"
#include "tests/fuzz/input_fuzz_targets.h"

namespace falcon::fuzz {
namespace {

namespace fs = std::filesystem;
const fs::path kRepo = fs::path(FALCON_FIXTURES_DIR) / ".." / "..";

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> files_in(const fs::path& folder, const std::string& extension) {
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == extension) paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> texts;
  for (const auto& p : paths) texts.push_back(read_bytes(p));
  return texts;
}

// Byte edits of the kinds that break readers: cuts, insertions from `alphabet`, flipped bytes,
// odd numbers, truncation.
void mutate(Rng& rng, std::string& bytes, const std::string& alphabet) {
  const int edits = rng.uniform_int(1, 6);
  for (int e = 0; e < edits; ++e) {
    const int at = bytes.empty() ? 0 : rng.uniform_int(0, static_cast<int>(bytes.size()) - 1);
    switch (rng.uniform_int(0, 4)) {
      case 0: if (!bytes.empty()) bytes.erase(at, rng.uniform_int(1, 12)); break;
      case 1: bytes.insert(bytes.begin() + at, alphabet[rng.uniform_int(0, static_cast<int>(alphabet.size()) - 1)]); break;
      case 2: if (!bytes.empty()) bytes[at] = static_cast<char>(rng.uniform_int(0, 255)); break;
      case 3: bytes.insert(at, std::to_string(rng.uniform_int(-5, 1 << 30))); break;
      default: bytes.resize(at); break;
    }
  }
}

void run(int (*target)(const std::uint8_t*, std::size_t), const std::string& bytes) {
  target(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

TEST(InputFuzzReplay, ConfigsOfDatagenEvalAndTraining) {
  const std::vector<std::vector<std::string>> seeds = {files_in(kRepo / "configs" / "data", ".yaml"),
                                                       files_in(kRepo / "configs" / "eval", ".yaml"),
                                                       files_in(kRepo / "configs", ".yaml")};  // byte 0's readers
  ASSERT_GE(seeds[0].size(), 7u);
  ASSERT_GE(seeds[1].size(), 1u);
  ASSERT_GE(seeds[2].size(), 7u);
  for (const auto& text : seeds[0]) {  // the repository's configs are accepted as they are
    Config config = Config::from_string(text, "configs/data");
    EXPECT_NO_THROW(data::read_datagen_spec(config)) << text.substr(0, 200);
  }
  for (const auto& text : seeds[2]) {
    Config config = Config::from_string(text, "configs");
    EXPECT_NO_THROW(recipe::read_training_config(config)) << text.substr(0, 200);
  }
  Rng rng(31);
  const std::string alphabet = ":{}[]-,# \n'\"&*!|>%@`0123456789.eE+problemsizesplitsrowstypestagesmodel\x00\xff";
  for (int k = 0; k < 4500; ++k) {
    const int reader = k % 3;
    std::string text = seeds[reader][rng.uniform_int(0, static_cast<int>(seeds[reader].size()) - 1)];
    mutate(rng, text, alphabet);
    run(config_one_input, std::string(1, static_cast<char>(reader)) + text);
  }
}

TEST(InputFuzzReplay, TokenizerJsonFiles) {
  const std::string file = read_bytes(kRepo / "tests" / "fixtures" / "tokenizer" / "tiny_byte_level.json");
  ASSERT_GT(file.size(), 100u);
  run(tokenizer_model_one_input, file);
  Rng rng(33);
  for (int k = 0; k < 1500; ++k) {
    std::string bytes = file;
    mutate(rng, bytes, std::string("{}[]\",:0123456789 \\nulltrue-\xc4\xa0"));
    run(tokenizer_model_one_input, bytes);
  }
}

TEST(InputFuzzReplay, TokenizerModels) {
  const std::string model = read_bytes(kRepo / "tests" / "fixtures" / "tokenizer" / "tiny_bpe.model");
  ASSERT_GT(model.size(), 100u);
  run(tokenizer_model_one_input, model);
  Rng rng(32);
  for (int k = 0; k < 1500; ++k) {
    std::string bytes = model;
    mutate(rng, bytes, std::string("\x08\x0a\x10\x12\x1a\x22\x2a\x00\x01\x7f\x80\xff", 12));
    run(tokenizer_model_one_input, bytes);
  }
}

TEST(InputFuzzReplay, GrammarFiles) {
  const auto grammars = files_in(kRepo / "grammars", ".bnf");
  ASSERT_GE(grammars.size(), 7u);
  for (const auto& text : grammars) EXPECT_NO_THROW(decoding::Grammar::parse(text, "grammars")) << text.substr(0, 200);
  Rng rng(33);
  for (int k = 0; k < 3000; ++k) {
    std::string text = grammars[rng.uniform_int(0, static_cast<int>(grammars.size()) - 1)];
    mutate(rng, text, "ab:=|()*+?<>[]^-\"\\x0 \n#index");
    run(grammar_one_input, text);
  }
}

TEST(InputFuzzReplay, DatasetFiles) {
  dataset_fuzz_start();  // as the fuzzer runs: each file read first in a child of the probe server
  const fs::path dir = fs::temp_directory_path() / ("falcon_dataset_replay_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  Config config = Config::from_string(
      "problem: cvrp\nseed: 3\noutput: " + (dir / "seed.h5").string() +
          "\nsizes: {list: [8]}\ndistributions: [uniform]\nlabel: {method: nearest_neighbor}\n"
          "splits: {train: {count: 6}, test: {count: 3}}\nthreads: 1\n",
      "replay.yaml");
  data::DatagenOptions quiet;
  quiet.progress = false;
  data::run_datagen(data::read_datagen_spec(config), quiet);
  const std::string file = read_bytes(dir / "seed.h5");
  fs::remove_all(dir);
  ASSERT_GT(file.size(), 1000u);
  run(dataset_one_input, file);
  Rng rng(34);
  for (int k = 0; k < 300; ++k) {
    std::string bytes = file;
    // HDF5 files are mostly structure: a few flipped bytes anywhere, or a cut.
    for (int e = rng.uniform_int(1, 4); e > 0; --e) bytes[rng.uniform_int(0, static_cast<int>(bytes.size()) - 1)] = static_cast<char>(rng.uniform_int(0, 255));
    if (k % 10 == 0) bytes.resize(rng.uniform_int(0, static_cast<int>(bytes.size())));
    run(dataset_one_input, bytes);
  }
}

std::string safetensors_file(const std::string& header, std::size_t data_bytes) {
  std::string bytes(8, '\0');
  const std::uint64_t n = header.size();
  std::memcpy(bytes.data(), &n, 8);
  return bytes + header + std::string(data_bytes, '\x01');
}

TEST(InputFuzzReplay, SafetensorsHeaders) {
  const std::vector<std::string> seeds = {
      read_bytes(kRepo / "tests" / "fixtures" / "hf" / "tiny_llama" / "model.safetensors").substr(0, 1 << 16),
      safetensors_file(R"({"__metadata__":{"format":"pt"},"a":{"dtype":"F32","shape":[2,1],"data_offsets":[0,8]},)"
                       R"("b":{"dtype":"BOOL","shape":[0],"data_offsets":[8,8]}})", 8),
  };
  EXPECT_NO_THROW(parse_safetensors_header(reinterpret_cast<const unsigned char*>(seeds[1].data()), seeds[1].size(), "seed"));
  Rng rng(35);
  for (int k = 0; k < 5000; ++k) {
    std::string bytes = seeds[k % seeds.size()];
    mutate(rng, bytes, "{}[]\":,0123456789FIUBOLdtypeshapedata_offsets \\");
    run(safetensors_one_input, bytes);
  }
}

}  // namespace
}  // namespace falcon::fuzz

// Under LeakSanitizer (tools/sanitize.sh): once damaged files have failed to open (DatasetFiles
// feeds it 300), the HDF5 library (1.10) still holds blocks of its metadata cache and free lists
// at exit, allocated inside it (under H5Dopen2, H5Aexists). Only allocations made inside libhdf5
// are let go, and only in this program: the data_io tests, which read whole files, keep full checks.
extern "C" const char* __lsan_default_suppressions() { return "leak:libhdf5_serial.so\n"; }
