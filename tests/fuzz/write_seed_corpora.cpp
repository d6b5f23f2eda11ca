// Writes the seed corpus of every fuzz target (tools/fuzz.sh runs it once, before the first
// campaign): the repository's own files of each kind, the three smallest benchmark files of each
// reader, small datasets of every problem, and a solution text of every problem in every text style.
//   fuzz_seed_corpora REPO_DIR BENCHMARKS_DIR OUT_DIR     -> OUT_DIR/<target>/seed_*
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "falcon/core/config.h"
#include "falcon/core/error.h"
#include "falcon/data/datagen.h"
#include "falcon/data/datagen_spec.h"
#include "falcon/problems/registry.h"
#include "tests/fuzz/solution_fuzz_target.h"
#include "tests/fuzz/instance_file_fuzz_target.h"

namespace fs = std::filesystem;
using namespace falcon;

namespace {

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Up to `count` of the smallest files under `folder` ending in `extension`, smallest first.
std::vector<fs::path> smallest(const fs::path& folder, const std::string& extension, std::size_t count) {
  std::vector<std::pair<std::uintmax_t, fs::path>> found;
  if (fs::is_directory(folder))
    for (const auto& e : fs::recursive_directory_iterator(folder))
      if (e.is_regular_file() && e.path().extension() == extension) found.emplace_back(e.file_size(), e.path());
  std::sort(found.begin(), found.end());
  std::vector<fs::path> out;
  for (std::size_t i = 0; i < std::min(count, found.size()); ++i) out.push_back(found[i].second);
  return out;
}

class Corpus {
 public:
  Corpus(const fs::path& root, const std::string& target) : dir_(root / target), target_(target) { fs::create_directories(dir_); }
  void add(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ / ("seed_" + name), std::ios::binary) << bytes;
    ++count_;
  }
  ~Corpus() { std::printf("fuzz_seed_corpora: %s: %d seeds\n", target_.c_str(), count_); }

 private:
  fs::path dir_;
  std::string target_;
  int count_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: fuzz_seed_corpora REPO_DIR BENCHMARKS_DIR OUT_DIR\n");
    return 2;
  }
  const fs::path repo = argv[1], benchmarks = argv[2], out = argv[3];
  try {
    const auto names = problems::problem_names();
    {
      Corpus c(out, "solution_fuzzer");  // byte 0: problem and text style (solution_fuzz_problem), byte 1: n - 5
      for (std::size_t selector = 0; selector < 3 * names.size(); ++selector) {
        const problems::Problem& problem = fuzz::solution_fuzz_problem(static_cast<std::uint8_t>(selector));
        problems::GenerateOptions options;
        options.n = 20;
        const auto instance = problem.generate(options, 20);
        const std::string text = problem.format(*instance, problem.repair(*instance, problems::Solution{}));
        c.add(problem.grammar_name() + "_" + std::to_string(selector), std::string{static_cast<char>(selector), 15} + text);
      }
    }
    {
      Corpus c(out, "instance_file_fuzzer");  // byte 0: the reader
      const auto& readers = fuzz::instance_readers();
      for (std::size_t k = 0; k < readers.size(); ++k)
        for (const auto& f : smallest(benchmarks / readers[k].benchmark_folder, readers[k].extension, 3))
          c.add(std::to_string(k) + "_" + f.filename().string(), std::string(1, static_cast<char>(k)) + read_bytes(f));
    }
    {
      Corpus c(out, "config_fuzzer");  // byte 0: 0 datagen, 1 eval, 2 training recipe
      for (const auto& [folder, kind] : {std::pair{"data", '\0'}, std::pair{"eval", '\1'}, std::pair{"", '\2'}})
        for (const auto& e : fs::directory_iterator(repo / "configs" / folder))
          if (e.path().extension() == ".yaml")
            c.add((*folder ? std::string(folder) : std::string("recipe")) + "_" + e.path().filename().string(),
                  kind + read_bytes(e.path()));
    }
    {
      Corpus c(out, "tokenizer_model_fuzzer");
      for (const auto& f : smallest(repo / "tests" / "fixtures", ".model", 4)) c.add(f.filename().string(), read_bytes(f));
      c.add("tiny_byte_level.json", read_bytes(repo / "tests" / "fixtures" / "tokenizer" / "tiny_byte_level.json"));
    }
    {
      Corpus c(out, "grammar_fuzzer");
      for (const auto& e : fs::directory_iterator(repo / "grammars")) c.add(e.path().filename().string(), read_bytes(e.path()));
    }
    {
      Corpus c(out, "safetensors_fuzzer");
      for (const auto& f : smallest(repo / "tests" / "fixtures", ".safetensors", 4))
        c.add(f.parent_path().filename().string() + ".safetensors", read_bytes(f));
    }
    {
      Corpus c(out, "dataset_fuzzer");  // a small labelled dataset of every problem
      const fs::path scratch = out / "dataset_scratch";
      fs::create_directories(scratch);
      for (const auto name : names) {
        const std::string n = name == "jssp" ? "4" : "8";
        const std::string distribution = name == "mis" || name == "mvc" ? "er" : name == "jssp" ? "taillard" : "uniform";
        const fs::path file = scratch / (std::string(name) + ".h5");
        Config config = Config::from_string("problem: " + std::string(name) + "\nseed: 1\noutput: " + file.string() +
                                                "\nsizes: {list: [" + n + "]}\ndistributions: [" + distribution +
                                                "]\nsplits: {train: {count: 3}, test: {count: 2}}\nthreads: 1\n",
                                            "fuzz_seed_corpora");
        data::DatagenOptions quiet;
        quiet.progress = false;
        data::run_datagen(data::read_datagen_spec(config), quiet);
        c.add(std::string(name) + ".h5", read_bytes(file));
      }
      fs::remove_all(scratch);
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "fuzz_seed_corpora: %s\n", e.what());
    return 1;
  }
  return 0;
}
