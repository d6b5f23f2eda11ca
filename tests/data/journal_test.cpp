#include "falcon/data/journal.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "falcon/core/error.h"
#include "tests/data/test_util.h"
#include "tests/error_of.h"

namespace falcon::data {
namespace {

using falcon::test_support::error_of;

using ::testing::HasSubstr;

const std::string kIdentity = "problem: tsp\nseed: 1\n";

JournalEntry entry(const std::string& split, std::int64_t index) {
  JournalEntry e;
  e.split = split;
  e.index = index;
  e.label.solution.lists = {{2, 0, 1}, {}};
  e.label.objective = 0.1 + 0.2 * index;  // not exactly representable: must come back bit for bit
  e.label.solver = "nearest_neighbor";
  e.label.solver_seed = 0xFFFFFFFFFFFFFFF0ULL + static_cast<std::uint64_t>(index);
  e.label.seconds = 1e-5;
  return e;
}

void expect_entries(const std::vector<JournalEntry>& got, const std::vector<JournalEntry>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].split, want[i].split);
    EXPECT_EQ(got[i].index, want[i].index);
    EXPECT_EQ(got[i].label.solution, want[i].label.solution);
    EXPECT_EQ(got[i].label.objective, want[i].label.objective);
    EXPECT_EQ(got[i].label.solver, want[i].label.solver);
    EXPECT_EQ(got[i].label.solver_seed, want[i].label.solver_seed);
    EXPECT_EQ(got[i].label.seconds, want[i].label.seconds);
  }
}

TEST(Journal, AppendsAndReadsBackExactly) {
  const std::string path = (testing::scratch_dir() / "j.journal").string();
  const std::vector<JournalEntry> entries = {entry("train", 3), entry("test", 0), entry("train", 1)};
  {
    auto j = Journal::open(path, kIdentity);
    EXPECT_TRUE(j->entries().empty());
    j->append({entries[0]});
    j->append({entries[1], entries[2]});
  }
  auto j = Journal::open(path, kIdentity);
  expect_entries(j->entries(), entries);
  j->clear();
  j.reset();
  EXPECT_TRUE(Journal::open(path, kIdentity)->entries().empty());
}

TEST(Journal, TornLastLineIsDroppedAndCutOff) {
  const std::string path = (testing::scratch_dir() / "j.journal").string();
  Journal::open(path, kIdentity)->append({entry("train", 0), entry("train", 1)});
  std::string text;
  {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  // Cut the last line in the middle, as a kill during write() would.
  const std::size_t last = text.rfind('\n', text.size() - 2);
  std::filesystem::resize_file(path, last + 10);
  {
    auto j = Journal::open(path, kIdentity);
    expect_entries(j->entries(), {entry("train", 0)});
    EXPECT_EQ(std::filesystem::file_size(path), last + 1);
    j->append({entry("train", 5)});
  }
  expect_entries(Journal::open(path, kIdentity)->entries(), {entry("train", 0), entry("train", 5)});
  // A torn header (killed right after creation) starts a fresh journal.
  std::filesystem::resize_file(path, 5);
  EXPECT_TRUE(Journal::open(path, kIdentity)->entries().empty());
}

TEST(Journal, CorruptMiddleLineAnotherConfigAndASecondWriterAreErrors) {
  const std::string path = (testing::scratch_dir() / "j.journal").string();
  Journal::open(path, kIdentity)->append({entry("train", 0), entry("train", 1)});
  EXPECT_THAT(error_of([&] { Journal::open(path, "problem: tsp\nseed: 2\n"); }),
              HasSubstr(path + ": holds labels of another config ('seed' differs)"));
  {
    auto holder = Journal::open(path, kIdentity);
    EXPECT_THAT(error_of([&] { Journal::open(path, kIdentity); }), HasSubstr(path + ": locked by another process"));
  }
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(std::filesystem::file_size(path) / 2));
    f.put('#');
  }
  const std::string e = error_of([&] { Journal::open(path, kIdentity); });
  EXPECT_THAT(e, ::testing::StartsWith(path + ":"));
  EXPECT_NE(e, "(no error)");
}

}  // namespace
}  // namespace falcon::data
