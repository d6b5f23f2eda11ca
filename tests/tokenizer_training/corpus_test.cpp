// Tokenizer training text: from a dataset's labelled split and from generated instances, with
// the trainer's prompt ending, and a tokenizer trained on it that keeps it exact.
#include "falcon/tokenizer_training/corpus.h"

#include <gtest/gtest.h>

#include <filesystem>

#include <unistd.h>

#include "falcon/core/config.h"
#include "falcon/core/error.h"
#include "falcon/data/datagen.h"
#include "falcon/data/reader.h"
#include "falcon/problems/registry.h"
#include "falcon/text/tokenizer.h"
#include "falcon/tokenizer_training/train.h"

namespace falcon::text {
namespace {

namespace fs = std::filesystem;

class DatasetCorpusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("falcon_corpus_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    path_ = (dir_ / "cvrp.h5").string();
    Config config = Config::from_string(
        "problem: cvrp\nseed: 3\noutput: " + path_ +
            "\nsizes: {range: [6, 9]}\ndistributions: [uniform]\nlabel: {method: nearest_neighbor}\nthreads: 1\n"
            "splits:\n  train: {count: 7}\n  test: {count: 2}\n",
        "corpus_test.yaml");
    data::DatagenOptions quiet;
    quiet.progress = false;
    data::run_datagen(data::read_datagen_spec(config), quiet);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  std::string path_;
};

TEST_F(DatasetCorpusTest, ReadsPromptsAndLabelledSolutionsOfASplit) {
  const auto corpus = dataset_corpus(path_);
  ASSERT_EQ(corpus.size(), 7u);
  const auto reader = data::DatasetReader::open(path_);
  const problems::Problem& cvrp = problems::problem_by_name("cvrp");
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    const auto item = reader.load("train", static_cast<std::int64_t>(i));
    EXPECT_EQ(corpus[i].problem, "cvrp");
    EXPECT_EQ(corpus[i].prompt, cvrp.prompt(*item.instance));
    EXPECT_EQ(corpus[i].solution, cvrp.format(*item.instance, item.record.label.solution));
    EXPECT_EQ(corpus[i].solution.rfind("Routes: [[", 0), 0u) << corpus[i].solution;
  }
  DatasetCorpusOptions test_split;
  test_split.split = "test";
  EXPECT_EQ(dataset_corpus(path_, test_split).size(), 2u);
  DatasetCorpusOptions limited;
  limited.limit = 3;
  EXPECT_EQ(dataset_corpus(path_, limited).size(), 3u);
  DatasetCorpusOptions missing;
  missing.split = "val";
  EXPECT_THROW(dataset_corpus(path_, missing), Error);
}

TEST_F(DatasetCorpusTest, TextsEndPromptsLikeTheTrainerAndTrainAnExactTokenizer) {
  const auto corpus = dataset_corpus(path_);
  const auto texts = corpus_texts(corpus);
  ASSERT_EQ(texts.size(), 2 * corpus.size());
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    EXPECT_EQ(texts[2 * i], corpus[i].prompt + std::string(kPromptEnd));
    EXPECT_EQ(texts[2 * i + 1], corpus[i].solution);
  }
  TrainOptions options;
  options.vocab_size = 500;
  train_tokenizer(texts, (dir_ / "tok").string(), options);
  const Tokenizer tok = Tokenizer::load((dir_ / "tok.model").string());
  for (const auto& text : texts) EXPECT_EQ(tok.decode(tok.encode(text)), text);
}

TEST(GeneratedCorpus, CoversEveryRegisteredProblem) {
  CorpusOptions options;
  options.instances_per_problem = 2;
  options.n = 8;
  const auto corpus = generate_corpus(options);
  EXPECT_EQ(corpus.size(), 2 * problems::problem_names().size());
  options.problems = {"tsp", "jssp"};
  EXPECT_EQ(generate_corpus(options).size(), 4u);
}

}  // namespace
}  // namespace falcon::text
