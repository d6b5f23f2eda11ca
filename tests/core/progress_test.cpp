#include "falcon/core/progress.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>

namespace falcon {
namespace {

// What `write` printed through a Progress into a temporary file.
template <class Write>
std::string printed(ProgressStyle style, Write write) {
  std::FILE* f = std::tmpfile();
  {
    Progress bar("step", 3, /*enabled=*/true, style, f);
    write(bar);
  }
  std::rewind(f);
  std::string text;
  for (int c; (c = std::fgetc(f)) != EOF;) text += static_cast<char>(c);
  std::fclose(f);
  return text;
}

TEST(Progress, AFileGetsWholeLinesWithoutCarriageReturns) {
  const std::string text = printed({false, std::chrono::milliseconds(0)}, [](Progress& bar) {
    bar.set_status("loss 1.5");
    bar.advance();
    bar.advance(2);
    bar.finish();
  });
  EXPECT_EQ(text.find('\r'), std::string::npos) << text;
  EXPECT_NE(text.find("step 1/3"), std::string::npos) << text;
  EXPECT_NE(text.find("ETA"), std::string::npos) << text;
  EXPECT_NE(text.find("loss 1.5\n"), std::string::npos) << text;
  EXPECT_NE(text.find("step 3/3  "), std::string::npos) << text;
  EXPECT_NE(text.find("done in"), std::string::npos) << text;
  int lines = 0;
  for (char c : text) lines += c == '\n';
  EXPECT_EQ(lines, 3);  // two progress lines and the final one
}

TEST(Progress, AResumedJobsRateCountsOnlyItsOwnWork) {
  // 900 of 1,000 steps were done by an earlier process; this one does 1 in about 1.1 s. Its
  // rate times its time is the 1 step it did (901 if the resumed steps counted as its own).
  std::FILE* f = std::tmpfile();
  {
    Progress bar("step", 1000, /*enabled=*/true, {false, std::chrono::hours(1)}, f);
    bar.resume_at(900);
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // a run under 1 s prints no total line
    bar.advance();
    bar.finish();
  }
  std::rewind(f);
  char line[256] = {};
  ASSERT_NE(std::fgets(line, sizeof line, f), nullptr);
  std::fclose(f);
  double rate = 0, seconds = 0;
  ASSERT_EQ(std::sscanf(line, "step 901/1000  %lf/s  done in %lfs", &rate, &seconds), 2) << line;
  EXPECT_GT(rate * seconds, 0.5) << line;
  EXPECT_LT(rate * seconds, 2.0) << line;
}

TEST(Progress, ATerminalRedrawsOneLine) {
  const std::string text = printed({true, std::chrono::milliseconds(0)}, [](Progress& bar) {
    bar.advance();
    bar.finish();
  });
  EXPECT_EQ(text.rfind("\rstep 1/3", 0), 0u) << text;
  EXPECT_EQ(text.find('\n'), text.size() - 1) << text;  // only the final line ends one
}

TEST(Progress, QuietUntilTheIntervalPassesAndWhenDisabled) {
  EXPECT_EQ(printed({false, std::chrono::hours(1)}, [](Progress& bar) {
              bar.advance(3);
              bar.finish();
            }),
            "");
  std::FILE* f = std::tmpfile();
  {
    Progress bar("x", 1, /*enabled=*/false, {false, std::chrono::milliseconds(0)}, f);
    bar.advance();
    bar.finish();
  }
  EXPECT_EQ(std::ftell(f), 0);
  std::fclose(f);
}

}  // namespace
}  // namespace falcon
