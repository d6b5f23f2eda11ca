// falcon_tokenizer end to end: a tokenizer for a model of several problems, each problem's corpus
// in its own text (--problem-style), and the errors of that option.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/tools/program_run.h"

namespace {

namespace fs = std::filesystem;

falcon::testing::ProgramRun run_tokenizer(const fs::path& dir, const std::string& args) {
  return falcon::testing::run_program(FALCON_TOKENIZER_BIN, dir, args);
}

class FalconTokenizerTest : public falcon::testing::ScratchDirTest {
 protected:
  FalconTokenizerTest() : ScratchDirTest("falcon_tokenizer_cli") {}
};

TEST_F(FalconTokenizerTest, EachProblemsCorpusIsWrittenInItsOwnStyle) {
  const std::string common = "train --generate count=3,n=8,seed=1 --problem tsp,op --numbers whole_ids --vocab 2400 "
                             "--text-style compact --candidates 2 --out '" + (dir_ / "tok").string() + "' ";
  const auto plain = run_tokenizer(dir_, common);
  ASSERT_EQ(plain.code, 0) << plain.err;
  const auto ranked = run_tokenizer(dir_, common + "--problem-style op=compact_ranked:2");
  ASSERT_EQ(ranked.code, 0) << ranked.err;
  EXPECT_TRUE(fs::exists(dir_ / "tok.model"));
  // The ranked OP text writes a note after each node: a longer corpus than the compact one.
  auto bytes_of = [](const std::string& json_line) {
    const auto at = json_line.find("\"bytes\":");
    return at == std::string::npos ? -1L : std::stol(json_line.substr(at + 8));
  };
  EXPECT_GT(bytes_of(ranked.out), bytes_of(plain.out)) << plain.out << "\n" << ranked.out;

  for (const auto& [spec, message] : {std::pair<std::string, std::string>{"op", "give PROBLEM=STYLE"},
                                      {"opp=compact", "unknown problem 'opp'"},
                                      {"op=compact_fancy", "unknown text style 'compact_fancy'"},
                                      {"op=compact_ranked:x", "'x' is not a candidate count"},
                                      {"op=compact:2 --problem-style op=compact_ranked", "op has a text style already"}}) {
    const auto bad = run_tokenizer(dir_, common + "--problem-style " + spec);
    EXPECT_NE(bad.code, 0) << spec;
    EXPECT_NE(bad.err.find("--problem-style"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find(message), std::string::npos) << bad.err;
  }
}

}  // namespace
