#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/fuzz/input_fuzz_targets.h"

namespace falcon::fuzz {

void fuzz_failure(const std::string& target, const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", target.c_str(), what.c_str());
  std::abort();
}

std::string write_scratch_file(const std::string& name, const std::uint8_t* data, std::size_t size) {
  const auto dir = std::filesystem::temp_directory_path() / ("falcon_fuzz_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

}  // namespace falcon::fuzz
