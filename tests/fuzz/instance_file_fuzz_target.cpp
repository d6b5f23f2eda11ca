#include "tests/fuzz/instance_file_fuzz_target.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"

namespace falcon::fuzz {
namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "instance_file_fuzz: %s\n", what.c_str());
  std::abort();
}

// One scratch file per extension and process, rewritten for every input.
std::string scratch_path(const std::string& extension) {
  const auto dir = std::filesystem::temp_directory_path() / ("falcon_instance_fuzz_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / ("input" + extension)).string();
}

}  // namespace

const std::vector<InstanceReader>& instance_readers() {
  static const std::vector<InstanceReader> readers = {
      {"tsp", ".tsp", "tsp"},
      {"cvrp", ".vrp", "cvrp"},
      {"op", ".oplib", "op/oplib"},
      {"op", ".txt", "op/tsiligirides_chao"},
      {"pfsp", ".txt", "pfsp"},
      {"jssp", ".txt", "jssp"},
      {"mis", ".mis", "mis/bhoslib"},
      {"mis", ".clq", "mis/dimacs_clique"},
      {"mvc", ".mis", "mis/bhoslib"},
  };
  return readers;
}

bool check_instance_file(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return false;
  const auto& readers = instance_readers();
  const InstanceReader& reader = readers[data[0] % readers.size()];
  const std::string path = scratch_path(reader.extension);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  const problems::Problem& problem = problems::problem_by_name(reader.problem);
  std::shared_ptr<problems::Instance> instance;
  try {
    instance = problem.read_file(path);
  } catch (const Error&) {
    return false;  // refused with a message: what a bad file should get
  } catch (const std::exception& e) {
    fail(std::string(reader.problem) + " " + reader.extension + ": not a falcon::Error: " + e.what());
  }
  if (instance == nullptr || instance->size() < 1) fail(std::string(reader.problem) + ": an instance without items");
  try {
    (void)problem.prompt(*instance);
    const problems::Solution empty = problem.text_format().nested ? problems::Solution{} : problems::Solution::flat({});
    if (!problem.feasible(*instance, problem.repair(*instance, empty)))
      fail(std::string(reader.problem) + ": repair of an empty answer is infeasible on an accepted file");
  } catch (const std::exception& e) {
    fail(std::string(reader.problem) + ": an accepted file breaks prompt or repair: " + e.what());
  }
  return true;
}

int instance_file_one_input(const std::uint8_t* data, std::size_t size) {
  check_instance_file(data, size);
  return 0;
}

}  // namespace falcon::fuzz
