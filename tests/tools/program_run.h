#pragma once
// Running one of the real programs the way a user does, for the end-to-end tests of tests/tools.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "falcon/core/atomic_file.h"

namespace falcon::testing {

struct ProgramRun {
  int code = 0;
  std::string out;  // stdout
  std::string err;  // stderr
};

// `program` run with `args` (shell words, quoted by the caller where needed); stderr goes
// through a file in `dir`.
inline ProgramRun run_program(const std::string& program, const std::filesystem::path& dir, const std::string& args) {
  const auto err_file = dir / "stderr.txt";
  ProgramRun run;
  FILE* pipe = ::popen((program + " " + args + " 2>'" + err_file.string() + "'").c_str(), "r");
  char buf[4096];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, pipe)) > 0;) run.out.append(buf, got);
  const int status = ::pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = falcon::read_file(err_file.string());
  return run;
}

// A fresh scratch folder per test, named after the program and this process.
class ScratchDirTest : public ::testing::Test {
 protected:
  explicit ScratchDirTest(const std::string& name)
      : dir_(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {}
  void SetUp() override {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

}  // namespace falcon::testing
