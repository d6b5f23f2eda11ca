// A short deterministic run of the benchmark-file fuzzer inside the ordinary test suite (no clang
// needed): the smallest real benchmark files of ../shared/benchmarks for each reader, as they are
// (each must be accepted) and mutated.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "falcon/core/rng.h"
#include "tests/fuzz/instance_file_fuzz_target.h"

namespace falcon::fuzz {
namespace {

namespace fs = std::filesystem;

// Up to `count` of the smallest files with `extension` in `folder`, whole.
std::vector<std::string> seed_files(const std::string& folder, const std::string& extension, std::size_t count) {
  std::vector<std::pair<std::uintmax_t, fs::path>> found;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(FALCON_BENCHMARKS_DIR) / folder))
    if (entry.is_regular_file() && entry.path().extension() == extension) found.emplace_back(entry.file_size(), entry.path());
  std::sort(found.begin(), found.end());
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < std::min(count, found.size()); ++i) {
    std::ifstream in(found[i].second, std::ios::binary);
    texts.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return texts;
}

void mutate(Rng& rng, std::string& text) {
  static const char kAlphabet[] = "0123456789 .-:\n\tEOFDIMENSIONNODE_COORD_SECTION\x00\xff";
  const int edits = rng.uniform_int(0, 8);
  for (int e = 0; e < edits; ++e) {
    const int at = text.empty() ? 0 : rng.uniform_int(0, static_cast<int>(text.size()) - 1);
    switch (rng.uniform_int(0, 4)) {
      case 0: if (!text.empty()) text.erase(at, rng.uniform_int(1, 12)); break;
      case 1: text.insert(text.begin() + at, kAlphabet[rng.uniform_int(0, sizeof kAlphabet - 2)]); break;
      case 2: if (!text.empty()) text[at] = static_cast<char>(rng.uniform_int(0, 255)); break;
      case 3: text.insert(at, std::to_string(rng.uniform_int(-5, 1 << 30))); break;  // odd numbers
      default: text.resize(at); break;  // truncation
    }
  }
}

TEST(InstanceFileFuzzReplay, MutatedBenchmarkFilesThroughEveryReader) {
  if (!fs::is_directory(FALCON_BENCHMARKS_DIR)) GTEST_SKIP() << "no " << FALCON_BENCHMARKS_DIR << " beside the checkout";
  const auto& readers = instance_readers();
  std::vector<std::vector<std::string>> seeds;  // by reader
  for (const auto& reader : readers) seeds.push_back(seed_files(reader.benchmark_folder, reader.extension, 3));
  Rng rng(2024);
  int inputs = 0;
  std::vector<int> accepted_as_is(readers.size(), 0), accepted_mutated(readers.size(), 0);
  for (int round = 0; round < 300; ++round) {
    for (std::size_t k = 0; k < readers.size(); ++k) {
      const auto& texts = seeds[k];
      std::string text = texts.empty() ? std::string() : texts[rng.uniform_int(0, static_cast<int>(texts.size()) - 1)];
      if (round > 0) mutate(rng, text);  // round 0: the files as they are
      std::string bytes(1, static_cast<char>(k));
      bytes += text;
      const bool accepted = check_instance_file(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      (round == 0 ? accepted_as_is : accepted_mutated)[k] += accepted;
      ++inputs;
    }
  }
  for (std::size_t k = 0; k < readers.size(); ++k) {
    std::printf("%s %s: %d of 299 mutated inputs accepted\n", readers[k].problem, readers[k].extension, accepted_mutated[k]);
    EXPECT_EQ(accepted_as_is[k], 1) << readers[k].problem << " " << readers[k].extension << ": its seed file was refused";
  }
  SUCCEED() << inputs << " inputs over " << readers.size() << " readers";
}

}  // namespace
}  // namespace falcon::fuzz
