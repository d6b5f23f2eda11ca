#include "tests/data/test_util.h"

#include <gtest/gtest.h>

#include <map>

#include "falcon/core/config.h"
#include "falcon/data/reader.h"

namespace falcon::data::testing {

std::filesystem::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = std::string("falcon_data_") + info->test_suite_name() + "_" + info->name();
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string test_method(const std::string& problem) {
  static const std::map<std::string, std::string> methods = {
      {"tsp", "nearest_neighbor"}, {"op", "greedy"}, {"cvrp", "nearest_neighbor"}, {"mis", "greedy"},
      {"mvc", "greedy"},           {"pfsp", "neh"},  {"jssp", "mwkr"}};
  return methods.at(problem);
}

std::string small_config(const std::string& problem, const std::string& output, int train, int test) {
  std::string distributions = "[uniform, gm]";
  std::string sizes = "{range: [8, 14]}";
  if (problem == "mis" || problem == "mvc") distributions = "[{name: er, params: {p: 0.3}}, {name: ba, params: {m: 2}}]";
  if (problem == "pfsp") distributions = "[{name: uniform, params: {m: 3}}, {name: taillard, params: {m: 4}}]";
  if (problem == "jssp") distributions = "[{name: taillard, params: {m: 3}}]";
  return "problem: " + problem + "\nseed: 5\noutput: " + output + "\nsizes: " + sizes + "\ndistributions: " + distributions +
         "\nlabel: {method: " + test_method(problem) + "}\nthreads: 2\ncheckpoint_every: 3\nsplits:\n  train: {count: " +
         std::to_string(train) + "}\n  test: {count: " + std::to_string(test) +
         ", sizes: {buckets: {small: [5, 7], large: [15, 18]}}}\n";
}

DatagenSpec spec_from_yaml(const std::string& yaml, const std::vector<std::string>& overrides) {
  Config config = Config::from_string(yaml, "test.yaml");
  config.set_overrides(overrides);
  return read_datagen_spec(config);
}

void expect_same_dataset(const std::string& a, const std::string& b) {
  const DatasetReader ra = DatasetReader::open(a), rb = DatasetReader::open(b);
  ASSERT_EQ(ra.problem().name(), rb.problem().name());
  ASSERT_EQ(ra.split_names(), rb.split_names());
  EXPECT_EQ(ra.complete(), rb.complete());
  for (const auto& split : ra.split_names()) {
    ASSERT_EQ(ra.size(split), rb.size(split)) << split;
    EXPECT_EQ(ra.split_info(split).distributions, rb.split_info(split).distributions);
    EXPECT_EQ(ra.split_info(split).buckets, rb.split_info(split).buckets);
    const auto xs = ra.read(split, 0, ra.size(split)), ys = rb.read(split, 0, rb.size(split));
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const Record &x = xs[i], &y = ys[i];
      EXPECT_EQ(x.index, y.index);
      EXPECT_EQ(x.seed, y.seed);
      EXPECT_EQ(x.n, y.n);
      EXPECT_EQ(x.distribution, y.distribution);
      EXPECT_EQ(x.bucket, y.bucket);
      EXPECT_EQ(x.name, y.name);
      EXPECT_TRUE(x.instance == y.instance) << split << "[" << x.index << "]";
      EXPECT_EQ(x.label.solution, y.label.solution) << split << "[" << x.index << "]";
      EXPECT_EQ(x.label.objective, y.label.objective);
      EXPECT_EQ(x.label.solver, y.label.solver);
      EXPECT_EQ(x.label.solver_seed, y.label.solver_seed);
    }
  }
}

}  // namespace falcon::data::testing
