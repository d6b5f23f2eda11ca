#include "falcon/core/atomic_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "falcon/core/error.h"

namespace falcon {
namespace {

namespace fs = std::filesystem;

TEST(AtomicFile, WritesReplacesAndLeavesNoTemporary) {
  const fs::path dir = fs::temp_directory_path() / ("falcon_atomic_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  const std::string path = (dir / "sub" / "f.txt").string();
  write_file_atomic(path, std::string("one\0two", 7));
  EXPECT_EQ(read_file(path), std::string("one\0two", 7));
  write_file_atomic(path, "replaced");
  EXPECT_EQ(read_file(path), "replaced");
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir / "sub")) ++entries;
  EXPECT_EQ(entries, 1);
  EXPECT_NO_THROW(fsync_tree(dir.string()));

  try {
    write_file_atomic((dir / "missing" / "f.txt").string(), "x");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing/f.txt"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_file((dir / "nope").string()), Error);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace falcon
