#include "falcon/train/data_source.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "falcon/core/error.h"

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

  DataSpec spec(int train_count, const std::string& sizes) const {
    DataSpec data;
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

}  // namespace
}  // namespace falcon::train
