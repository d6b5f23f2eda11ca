// Hugging Face tokenizer.json: the reference's ids on every fixture text for Qwen3 (Qwen2.5's
// vocabulary) and Llama-3 (hf_reference/make_fixture.sh made them), and the parts of the reader on
// small hand-made files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "falcon/core/error.h"
#include "falcon/text/chat_template.h"
#include "falcon/text/hf_bpe.h"
#include "falcon/text/tokenizer.h"

namespace falcon::text {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const fs::path kFixture = fs::path(FALCON_FIXTURES_DIR) / ".." / "text" / "hf_reference" / "fixture.json";

fs::path family_file(const std::string& family) { return fs::path(FALCON_TOKENIZERS_DIR) / family / "tokenizer.json"; }

class ReferenceIds : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceIds, EveryFixtureTextEncodesToTheReferenceIds) {
  const fs::path file = family_file(GetParam());
  if (!fs::exists(file)) GTEST_SKIP() << file << " is absent: run tools/fetch_tokenizers.sh to test against it";
  const Tokenizer tokenizer = Tokenizer::load(file.string());
  const json fixture = json::parse(read(kFixture));
  const auto& texts = fixture.at("texts");
  const auto& expected = fixture.at(GetParam());
  ASSERT_EQ(texts.size(), expected.size());
  int wrong = 0;
  for (std::size_t k = 0; k < texts.size(); ++k) {
    const std::string text = texts[k].get<std::string>();
    const auto ids = tokenizer.encode(text);
    const auto want = expected[k].get<std::vector<int>>();
    if (ids != want && ++wrong <= 3) ADD_FAILURE() << "text " << k << " (" << json(text).dump() << "): " << json(ids).dump() << " != " << json(want).dump();
  }
  EXPECT_EQ(wrong, 0) << "of " << texts.size() << " texts";
}

TEST_P(ReferenceIds, DecodeGivesBackTheTextAndSpecialTokensAreMasked) {
  const fs::path file = family_file(GetParam());
  if (!fs::exists(file)) GTEST_SKIP() << file << " is absent: run tools/fetch_tokenizers.sh to test against it";
  const Tokenizer tokenizer = Tokenizer::load(file.string());
  for (const std::string text : {"Route: [0, 4, 6], Objective: 3.02", "  naïve 日本語 🤖\n\n 123456", "x\ty"})
    EXPECT_EQ(tokenizer.decode(tokenizer.encode(text)), text);
  std::string joined;
  for (const int id : tokenizer.encode(" hello  world")) joined += tokenizer.token_bytes(id);
  EXPECT_EQ(joined, " hello  world");
  ASSERT_GE(tokenizer.eos_id(), 0);
  EXPECT_TRUE(tokenizer.is_special(tokenizer.eos_id()));
  EXPECT_EQ(tokenizer.token_bytes(tokenizer.eos_id()), "");
}

INSTANTIATE_TEST_SUITE_P(Families, ReferenceIds, ::testing::Values("qwen3", "llama3"));

TEST(HfTokenizerFiles, QwenNamesItsSpecialTokensFromTheConfig) {
  const fs::path file = family_file("qwen3");
  if (!fs::exists(file)) GTEST_SKIP() << file << " is absent: run tools/fetch_tokenizers.sh";
  const Tokenizer t = Tokenizer::load(file.string());
  EXPECT_EQ(t.vocab_size(), 151669);
  EXPECT_EQ(t.bos_id(), -1);  // Qwen has none
  EXPECT_EQ(t.piece(t.eos_id()), "<|im_end|>");
  EXPECT_EQ(t.piece(t.pad_id()), "<|endoftext|>");
  EXPECT_EQ(t.encode("<|im_start|>"), std::vector<int>{t.id("<|im_start|>")});
  EXPECT_EQ(t.token_bytes(t.id("<think>")), "<think>");  // an added token that is not special
  EXPECT_FALSE(t.is_special(t.id("<think>")));
  EXPECT_EQ(tokenizer_file(file.parent_path().string()), file.string());
}

TEST(ChatTemplates, SetTheTurnsEndTokenAsEosAndRefuseTokenizersWithoutTheirTokens) {
  const fs::path file = family_file("llama3");
  if (fs::exists(file)) {
    const Tokenizer llama = Tokenizer::load(file.string());
    EXPECT_EQ(llama.piece(llama.eos_id()), "<|end_of_text|>");
    const Tokenizer chat = llama.with_chat_template("llama3");
    EXPECT_EQ(chat.piece(chat.eos_id()), "<|eot_id|>");
    EXPECT_EQ(chat.chat_template().name, "llama3");
    EXPECT_EQ(llama.chat_template().name, "none");  // the original is unchanged
    EXPECT_EQ(chat.with_chat_template("none").eos_id(), llama.eos_id());
  }
  const Tokenizer spm = Tokenizer::load(std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model");
  EXPECT_EQ(spm.with_chat_template("none").eos_id(), spm.eos_id());
  for (const auto& [name, needle] : {std::pair{"chatml", "needs its special tokens"}, std::pair{"alpaca", "unknown chat template 'alpaca'"}}) {
    try {
      (void)spm.with_chat_template(name);
      ADD_FAILURE() << name << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  }
}

// A byte-level BPE file small enough to reason about: the 256 byte tokens, then merged ones.
json tiny_file() {
  json vocab = json::object();
  const auto& alphabet = byte_level_alphabet();
  for (int b = 0; b < 256; ++b) vocab[alphabet[static_cast<std::size_t>(b)]] = b;
  int next = 256;
  for (const char* t : {"ab", "bc", "abc", "aa", "Ġa", "Ġab"}) vocab[t] = next++;
  return {{"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", {"Ġ a", "a b", "b c", "ab c", "a a", "Ġa b"}}}},
          {"normalizer", nullptr},
          {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}}},
          {"added_tokens", json::array({{{"id", 262}, {"content", "<e>"}, {"special", true}},
                                        {{"id", 263}, {"content", "<e>x"}, {"special", false}, {"rstrip", true}}})}};
}

Tokenizer tiny(const json& file) { return Tokenizer::from_bytes(file.dump(), "tiny.json"); }

TEST(HfBpe, MergesByRankLeftmostFirst) {
  const Tokenizer t = tiny(tiny_file());
  EXPECT_EQ(t.encode("abc"), (std::vector<int>{258}));        // a b -> ab, then ab c
  EXPECT_EQ(t.encode("bc"), (std::vector<int>{257}));
  EXPECT_EQ(t.encode("aaa"), (std::vector<int>{259, 'a'}));   // the leftmost pair merges first
  EXPECT_EQ(t.encode(" ab"), (std::vector<int>{261}));        // Ġ a (rank 0), then Ġa b
  EXPECT_EQ(t.encode(" abc"), (std::vector<int>{260, 257}));  // b c (rank 2) before Ġa b (rank 5)
  EXPECT_EQ(t.encode("ab ab"), (std::vector<int>{256, 261}));  // GPT-2's split keeps the space with the word
  EXPECT_EQ(t.decode(t.encode("ab abc")), "ab abc");
  EXPECT_EQ(t.token_bytes(261), " ab");
  EXPECT_EQ(t.piece(261), "Ġab");
}

TEST(HfBpe, IgnoreMergesTakesAWholeWordFromTheVocabulary) {
  json file = tiny_file();
  file["model"]["vocab"]["ac"] = 264;  // no merge makes it
  EXPECT_EQ(tiny(file).encode("ac"), (std::vector<int>{'a', 'c'}));
  file["model"]["ignore_merges"] = true;
  EXPECT_EQ(tiny(file).encode("ac"), (std::vector<int>{264}));
}

TEST(HfBpe, AddedTokensAreCutOutLongestFirstWithTheirStrip) {
  const Tokenizer t = tiny(tiny_file());
  EXPECT_EQ(t.encode("ab<e>ab"), (std::vector<int>{256, 262, 256}));
  EXPECT_EQ(t.encode("<e>x   ab"), (std::vector<int>{263, 256}));  // longest wins; rstrip eats the spaces
  EXPECT_EQ(t.decode({256, 262, 263}), "ab<e>x");                  // special skipped, the other kept
  EXPECT_TRUE(t.is_special(262));
  EXPECT_FALSE(t.is_special(263));
  EXPECT_EQ(t.eos_id(), -1);  // no tokenizer_config.json
}

TEST(HfBpe, InvalidUtf8ReadsAsReplacementCharacters) {
  const Tokenizer t = tiny(tiny_file());
  const auto ids = t.encode("a\xff" "b");
  EXPECT_EQ(t.decode(ids), "a\xEF\xBF\xBD" "b");
}

TEST(HfBpe, SplitRegexGetsOnigurumasUnicodeWhitespace) {
  EXPECT_EQ(with_unicode_whitespace(R"(\s+(?!\S)|[^\s\p{L}]+)"),
            std::string("[") + R"(\t\n\x0B\f\r\x20\x85\xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000})" +
                "]+(?![^" + R"(\t\n\x0B\f\r\x20\x85\xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000})" +
                "])|[^" + R"(\t\n\x0B\f\r\x20\x85\xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000})" +
                R"(\p{L}]+)");
  EXPECT_EQ(with_unicode_whitespace(R"(a\\s[\]s])"), R"(a\\s[\]s])");  // escapes and a ']' in a class stay
  std::string bytes;
  ASSERT_TRUE(from_byte_level(to_byte_level(std::string("\0 \n\xff", 4)), bytes));
  EXPECT_EQ(bytes, std::string("\0 \n\xff", 4));
  EXPECT_EQ(to_byte_level(" \n"), "ĠĊ");
  EXPECT_FALSE(from_byte_level("€", bytes));
}

void expect_error(const json& file, const std::string& config, const std::string& needle) {
  try {
    Tokenizer::from_bytes(file.dump(), "bad.json");
    if (!config.empty()) {
      const fs::path dir = fs::temp_directory_path() / "falcon_hf_config_test";
      fs::create_directories(dir);
      std::ofstream(dir / "tokenizer.json") << file.dump();
      std::ofstream(dir / "tokenizer_config.json") << config;
      Tokenizer::load((dir / "tokenizer.json").string());
    }
    ADD_FAILURE() << "no error; expected one with '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(HfBpe, BadFilesGetOneErrorNamingThePlace) {
  expect_error(json::object(), "", "has no 'model'");
  json file = tiny_file();
  file["model"]["type"] = "Unigram";
  expect_error(file, "", "model is Unigram");
  file = tiny_file();
  file["model"]["merges"].push_back("a z");
  expect_error(file, "", "merge 6 ('a' 'z') names a token that is not in the vocabulary");
  file = tiny_file();
  file["model"]["vocab"].erase("a");
  expect_error(file, "", "byte 97 ('a') has no token");
  file = tiny_file();
  file["pre_tokenizer"] = {{"type", "Sequence"},
                           {"pretokenizers", {{{"type", "Split"}, {"pattern", {{"Regex", "(unclosed"}}}, {"behavior", "Isolated"}},
                                              {{"type", "ByteLevel"}, {"use_regex", false}, {"add_prefix_space", false}}}}};
  expect_error(file, "", "regex does not compile");
  file = tiny_file();
  file["normalizer"] = {{"type", "NFKC"}};
  expect_error(file, "", "normalizer is NFKC");
  file = tiny_file();
  file["model"]["byte_fallback"] = true;
  expect_error(file, "", "byte_fallback");
  expect_error(tiny_file(), R"({"eos_token": "</s>"})", "eos_token '</s>' is not a token");
  expect_error(tiny_file(), R"({"eos_token": )", "tokenizer_config.json is not valid JSON");
  try {
    Tokenizer::from_bytes("{\"model\": ", "truncated.json");
    ADD_FAILURE() << "a truncated file loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'truncated.json': the file is not valid JSON"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace falcon::text
