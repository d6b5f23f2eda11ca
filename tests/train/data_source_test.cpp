#include "falcon/train/data_source.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "falcon/core/error.h"
#include "falcon/decoding/computed_notes.h"
#include "falcon/text/tokenizer.h"

namespace falcon::train {
namespace {

namespace fs = std::filesystem;

class DataSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("falcon_data_source_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  recipe::TrainingDataSpec spec(int train_count, const std::string& sizes) const {
    recipe::TrainingDataSpec data;
    data.configs = {std::string(FALCON_SOURCE_DIR) + "/configs/data/tsp.yaml"};
    data.overrides = {"output=" + (dir_ / "tsp.h5").string(), "splits.train.count=" + std::to_string(train_count),
                      "splits.val.count=1", "splits.test.count=1", "sizes={range: [" + sizes + "]}"};
    return data;
  }
  std::int64_t train_size() const { return data::DatasetReader::open((dir_ / "tsp.h5").string(), "tsp").size("train"); }

  fs::path dir_;
};

// A dataset made for a smaller count is extended, never reused in silence (it once was: a recipe
// asking for 8,000 instances trained on the 1,000 an earlier config had made).
TEST_F(DataSourceTest, GrownCountExtendsTheExistingFile) {
  ensure_datasets(spec(3, "5, 6"), false);
  EXPECT_EQ(train_size(), 3);
  ensure_datasets(spec(5, "5, 6"), false);
  EXPECT_EQ(train_size(), 5);
}

TEST_F(DataSourceTest, FileFromAnotherConfigIsRefusedNamingTheKey) {
  ensure_datasets(spec(3, "5, 6"), false);
  try {
    ensure_datasets(spec(3, "7, 8"), false);
    FAIL() << "a dataset made with other sizes was reused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("another config"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("sizes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(train_size(), 3);  // nothing already written is lost
}

// Two runs side by side with `threads: 1` each must not label on every core each.
TEST_F(DataSourceTest, LabelsOnTheRecipesThreads) {
  ::testing::internal::CaptureStderr();
  ensure_datasets(spec(3, "5, 6"), true, 1);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("on 1 threads"), std::string::npos) << err;
}

// SFT's augmentation: the same stream gives the same copy (resumes, ranks), the copy spells a
// feasible tour of another instance with the label's objective, and without augment the example
// is trained as it is.
TEST_F(DataSourceTest, AugmentedSequencesAreSymmetricCopiesKeyedByStream) {
  ensure_datasets(spec(3, "8, 8"), false);
  const auto reader = data::DatasetReader::open((dir_ / "tsp.h5").string(), "tsp");
  const auto tokenizer = text::Tokenizer::load(std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model");
  const ExampleSet set = load_examples({reader}, "train", tokenizer, 1024);
  const TrainExample& ex = set.examples.front();
  const Sequence plain = sft_sequence(ex, tokenizer, /*augment=*/false, 7);
  EXPECT_EQ(plain.prompt, ex.prompt);
  EXPECT_EQ(plain.solution, ex.solution);
  const Sequence a = sft_sequence(ex, tokenizer, /*augment=*/true, 7), b = sft_sequence(ex, tokenizer, true, 7);
  EXPECT_EQ(a.prompt, b.prompt);
  EXPECT_EQ(a.solution, b.solution);
  EXPECT_NE(sft_sequence(ex, tokenizer, true, 8).prompt, a.prompt);
  EXPECT_NE(a.prompt, ex.prompt);
  std::vector<int> text_ids(a.solution.begin(), a.solution.end() - 1);  // without EOS
  const auto parsed = ex.problem->parse(tokenizer.decode(text_ids));
  ASSERT_TRUE(parsed.solution.has_value()) << tokenizer.decode(text_ids);
  EXPECT_NEAR(*parsed.objective, ex.label_objective, 0.006);  // two decimals in the text
  EXPECT_NO_THROW(check_augmentable(set, tokenizer));
}

// Without loss_on_notes each token gets a flag: the note tokens of the text the sequence spells
// (on the augmented copy, the copy's notes: the original instance's would refuse its text).
TEST_F(DataSourceTest, SequencesLeavingNotesOutFlagTheNoteTokensOfTheirOwnText) {
  recipe::TrainingDataSpec data;
  data.configs = {std::string(FALCON_SOURCE_DIR) + "/configs/data/mis.yaml"};
  data.overrides = {"output=" + (dir_ / "mis.h5").string(), "splits.train.count=2", "splits.val.count=1",
                    "splits.test.count=1", "sizes={range: [12, 12]}"};
  const auto paths = ensure_datasets(data, false);
  const auto reader = data::DatasetReader::open(paths.front(), "mis");
  const auto tokenizer = text::Tokenizer::load(std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model");
  const ExampleSet set = load_examples({reader}, "train", tokenizer, 4096, 0, {"compact_state", 0});
  const TrainExample& ex = set.examples.front();
  EXPECT_TRUE(sft_sequence(ex, tokenizer, false, 7).decoder_written.empty());
  for (const bool augment : {false, true}) {
    const Sequence s = sft_sequence(ex, tokenizer, augment, 7, /*loss_on_notes=*/false);
    ASSERT_EQ(s.decoder_written.size(), s.solution.size()) << augment;
    EXPECT_FALSE(s.decoder_written.back()) << "EOS is the model's";
    EXPECT_GT(s.trained_tokens(), 0u);
    EXPECT_LT(s.trained_tokens(), s.solution.size()) << "a state text has note tokens";
  }
  // The flags are those of note_tokens on the text's own bytes.
  const Sequence plain = sft_sequence(ex, tokenizer, false, 7, false);
  std::vector<std::string_view> bytes;
  for (const int id : plain.solution) bytes.emplace_back(tokenizer.token_bytes(id));
  EXPECT_EQ(plain.decoder_written, decoding::note_tokens(*ex.problem, ex.instance, bytes));
}

// The model's context bounds training as it bounds evaluation: an example longer than
// max_position_embeddings is refused before the first step, with the length it needs.
TEST_F(DataSourceTest, ExamplesLongerThanTheContextAreRefusedNamingTheLength) {
  ensure_datasets(spec(3, "8, 8"), false);
  const auto reader = data::DatasetReader::open((dir_ / "tsp.h5").string(), "tsp");
  const auto tokenizer = text::Tokenizer::load(std::string(FALCON_FIXTURES_DIR) + "/tokenizer/tiny_bpe.model");
  const ExampleSet set = load_examples({reader}, "train", tokenizer, 1024);
  std::size_t longest = 0;
  for (const auto& ex : set.examples) longest = std::max(longest, ex.prompt.size() + ex.solution.size());
  EXPECT_NO_THROW(check_fits_context(set, static_cast<std::int64_t>(longest), "train"));
  try {
    check_fits_context(set, static_cast<std::int64_t>(longest) - 1, "train");
    FAIL() << "an example one token over the context was accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("model.max_position_embeddings=" + std::to_string(longest - 1)), std::string::npos) << what;
    EXPECT_NE(what.find("at least " + std::to_string(longest)), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace falcon::train
