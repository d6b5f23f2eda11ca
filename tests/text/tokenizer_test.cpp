#include "falcon/text/tokenizer.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>

#include <unistd.h>

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"
#include "falcon/tokenizer_training/corpus.h"
#include "falcon/tokenizer_training/train.h"

namespace falcon::text {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir(const std::string& tag) {
  fs::path dir = fs::temp_directory_path() / ("falcon_text_test_" + tag + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

// One small corpus (2 instances of each problem, n = 10) and two tokenizers trained on it.
class TokenizerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    CorpusOptions corpus_options;
    corpus_options.instances_per_problem = 2;
    corpus_options.n = 10;
    corpus_ = new std::vector<CorpusText>(generate_corpus(corpus_options));
    dir_ = new fs::path(temp_dir("trained"));
    const auto texts = corpus_texts(*corpus_);
    TrainOptions split;
    split.vocab_size = 400;
    split.numbers = NumberHandling::kSplitDigits;
    train_tokenizer(texts, (*dir_ / "split").string(), split);
    TrainOptions plain = split;
    plain.numbers = NumberHandling::kPlain;
    train_tokenizer(texts, (*dir_ / "plain").string(), plain);
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
    delete corpus_;
  }
  static Tokenizer load(const std::string& stem) { return Tokenizer::load((*dir_ / (stem + ".model")).string()); }

  static std::vector<CorpusText>* corpus_;
  static fs::path* dir_;
};
std::vector<CorpusText>* TokenizerTest::corpus_ = nullptr;
fs::path* TokenizerTest::dir_ = nullptr;

TEST_F(TokenizerTest, CorpusCoversEveryRegisteredProblem) {
  std::set<std::string> seen;
  for (const auto& c : *corpus_) {
    seen.insert(c.problem);
    EXPECT_FALSE(c.prompt.empty());
    EXPECT_FALSE(c.solution.empty());
  }
  EXPECT_EQ(seen.size(), problems::problem_names().size());
}

TEST_F(TokenizerTest, RoundTripOnEveryProblemsPromptAndSolution) {
  // Fresh instances (other seed, other size) so the text was not seen in training.
  CorpusOptions other;
  other.instances_per_problem = 1;
  other.seed = 99;
  auto unseen = generate_corpus(other);
  for (const std::string stem : {"split", "plain"}) {
    Tokenizer tok = load(stem);
    for (const auto* corpus : {corpus_, &unseen})
      for (const auto& c : *corpus)
        for (const std::string* text : {&c.prompt, &c.solution}) {
          auto ids = tok.encode(*text);
          EXPECT_EQ(tok.decode(ids), *text) << stem << " " << c.problem;
          std::string joined;
          for (int id : ids) joined += tok.token_bytes(id);
          EXPECT_EQ(joined, *text) << stem << " " << c.problem;
        }
  }
}

TEST_F(TokenizerTest, WhitespaceAndUnseenBytesSurvive) {
  Tokenizer tok = load("split");
  for (const std::string text : {std::string("  two  leading\n\n\ttab "), std::string("caf\xC3\xA9 \xE2\x82\xAC 7"),
                                 std::string("\x01\x7F"), std::string(" ")}) {
    auto ids = tok.encode(text);
    EXPECT_EQ(tok.decode(ids), text);
    std::string joined;
    for (int id : ids) joined += tok.token_bytes(id);
    EXPECT_EQ(joined, text);
  }
}

TEST_F(TokenizerTest, SpecialIdsAndLookups) {
  Tokenizer tok = load("split");
  EXPECT_EQ(tok.vocab_size(), 400);
  EXPECT_EQ(tok.pad_id(), 0);
  EXPECT_EQ(tok.unk_id(), 1);
  EXPECT_EQ(tok.bos_id(), 2);
  EXPECT_EQ(tok.eos_id(), 3);
  for (int id : {tok.pad_id(), tok.unk_id(), tok.bos_id(), tok.eos_id()}) {
    EXPECT_TRUE(tok.is_special(id));
    EXPECT_EQ(tok.token_bytes(id), "");
  }
  EXPECT_EQ(tok.token_bytes(tok.id("<0x0A>")), "\n");
  EXPECT_EQ(tok.token_bytes(tok.id("<0xFF>")), "\xFF");
  for (int id = 0; id < tok.vocab_size(); ++id) {
    EXPECT_EQ(tok.id(tok.piece(id)), id);
    EXPECT_EQ(tok.token_bytes(id).find("\xE2\x96\x81"), std::string::npos);  // meta-space mapped back
  }
  EXPECT_THROW(tok.token_bytes(tok.vocab_size()), Error);
  EXPECT_THROW(tok.decode({-1}), Error);
}

bool has_two_digits(const std::string& bytes) {
  int digits = 0;
  for (unsigned char ch : bytes) digits += std::isdigit(ch) ? 1 : 0;
  return digits > 1;
}

TEST_F(TokenizerTest, SplitDigitsReallySplitsDigits) {
  Tokenizer split = load("split");
  for (int id = 0; id < split.vocab_size(); ++id) EXPECT_FALSE(has_two_digits(split.token_bytes(id))) << split.piece(id);
  auto ids = split.encode("12345 907");
  std::string joined;
  for (int id : ids) joined += split.token_bytes(id);
  EXPECT_EQ(joined, "12345 907");
  EXPECT_GE(ids.size(), 8u);
  // Plain BPE on number-heavy text learns multi-digit pieces.
  Tokenizer plain = load("plain");
  bool any = false;
  for (int id = 0; id < plain.vocab_size(); ++id) any = any || has_two_digits(plain.token_bytes(id));
  EXPECT_TRUE(any);
}

TEST(TokenizerLoad, MissingFileNamesTheFile) {
  try {
    Tokenizer::load("/nonexistent/dir/tokenizer.model");
    FAIL() << "expected falcon::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/tokenizer.model"), std::string::npos) << e.what();
  }
}

TEST(TokenizerLoad, CorruptFileNamesTheFile) {
  fs::path dir = temp_dir("corrupt");
  fs::path path = dir / "corrupt.model";
  { std::ofstream(path) << "this is not a protobuf \xFF\xFF\xFF\xFF"; }
  try {
    Tokenizer::load(path.string());
    FAIL() << "expected falcon::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

TEST(TokenizerTrain, RejectsBadOptions) {
  TrainOptions options;
  options.model_type = "wordpiece";
  EXPECT_THROW(train_tokenizer({"a"}, "/nonexistent/bad", options), Error);
  EXPECT_THROW(train_tokenizer({}, "/nonexistent/bad"), Error);
  EXPECT_THROW(number_handling_from_string("numbers"), Error);
}

}  // namespace
}  // namespace falcon::text
