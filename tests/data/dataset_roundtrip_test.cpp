// falcon_datagen's pipeline in-process: every problem labelled into a file and read back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "falcon/core/error.h"
#include "falcon/data/datagen.h"
#include "falcon/data/reader.h"
#include "falcon/data/writer.h"
#include "falcon/problems/registry.h"
#include "falcon/solvers/solver.h"
#include "tests/data/test_util.h"

namespace falcon::data {
namespace {

using testing::scratch_dir;
using testing::small_config;
using testing::spec_from_yaml;

DatagenOptions quiet() {
  DatagenOptions o;
  o.progress = false;
  return o;
}

// Record i rebuilds the very instance the plan generates, with the label the solver gives it.
TEST(DatasetRoundTrip, EveryProblemReadsBackItsInstancesAndLabels) {
  const auto dir = scratch_dir();
  for (auto name : problems::problem_names()) {
    const std::string p(name);
    const std::string out = (dir / (p + ".h5")).string();
    const DatagenSpec spec = spec_from_yaml(small_config(p, out));
    const DatagenResult result = run_datagen(spec, quiet());
    EXPECT_TRUE(result.complete) << p;
    EXPECT_EQ(result.labelled, 10) << p;
    EXPECT_FALSE(std::filesystem::exists(out + ".journal")) << p;
    EXPECT_FALSE(std::filesystem::exists(out + ".tmp")) << p;

    const DatasetReader reader = DatasetReader::open(out, p);
    EXPECT_TRUE(reader.complete());
    EXPECT_EQ(reader.split_names(), (std::vector<std::string>{"train", "test"}));
    EXPECT_EQ(reader.config_yaml(), spec.config_yaml);
    const problems::Problem& problem = problems::problem_by_name(p);
    const auto& solver = solvers::solver_by_name(p, spec.label.method);
    for (std::size_t s = 0; s < spec.splits.size(); ++s) {
      const SplitInfo& split = spec.splits[s];
      ASSERT_EQ(reader.size(split.name), split.count) << p;
      EXPECT_EQ(reader.split_info(split.name).buckets, split.buckets);
      EXPECT_EQ(reader.split_info(split.name).distributions, split.distributions);
      EXPECT_EQ(reader.solvers(split.name), std::vector<std::string>{spec.label.method});
      for (std::int64_t i = 0; i < split.count; ++i) {
        const LabeledInstance got = reader.load(split.name, i);
        const ItemPlan plan = plan_item(spec.seed, split, i);
        const auto expected = generate_item(problem, split, plan);
        EXPECT_EQ(got.record.index, i);
        EXPECT_EQ(got.record.seed, plan.seed);
        EXPECT_EQ(got.record.bucket, plan.bucket);
        EXPECT_EQ(got.record.distribution, plan.distribution);
        EXPECT_EQ(got.record.n, expected->size());
        EXPECT_EQ(got.instance->name, expected->name);
        EXPECT_EQ(problem.prompt(*got.instance), problem.prompt(*expected)) << p << " " << split.name << "[" << i << "]";
        solvers::SolveOptions so;
        so.seed = plan.solver_seed;
        const problems::Solution label = solver.solve(*expected, so);
        EXPECT_EQ(got.record.label.solution, label);
        EXPECT_EQ(got.record.label.objective, problem.objective(*expected, label));
        EXPECT_EQ(problem.objective(*got.instance, got.record.label.solution), got.record.label.objective);
        EXPECT_EQ(got.record.label.solver_seed, plan.solver_seed);
        EXPECT_GE(got.record.label.seconds, 0.0);
      }
    }
    EXPECT_NO_THROW(reader.verify()) << p;
  }
}

TEST(DatasetRoundTrip, ThreadCountDoesNotChangeTheFile) {
  const auto dir = scratch_dir();
  const std::string yaml = small_config("cvrp", "unused", 12, 6);
  run_datagen(spec_from_yaml(yaml, {"threads=1", "output=" + (dir / "a.h5").string()}), quiet());
  run_datagen(spec_from_yaml(yaml, {"threads=3", "checkpoint_every=1", "output=" + (dir / "b.h5").string()}), quiet());
  testing::expect_same_dataset((dir / "a.h5").string(), (dir / "b.h5").string());
}

TEST(DatasetRoundTrip, RaisingACountExtendsTheDatasetAndKeepsWhatIsThere) {
  const auto dir = scratch_dir();
  const std::string out = (dir / "x.h5").string();
  const std::string yaml = small_config("pfsp", out, 5, 2);
  run_datagen(spec_from_yaml(yaml), quiet());
  const DatagenResult more = run_datagen(spec_from_yaml(yaml, {"splits.train.count=9"}), quiet());
  EXPECT_EQ(more.resumed, 7);
  EXPECT_EQ(more.labelled, 4);
  EXPECT_TRUE(more.complete);
  const std::string fresh = (dir / "fresh.h5").string();
  run_datagen(spec_from_yaml(yaml, {"splits.train.count=9", "output=" + fresh}), quiet());
  testing::expect_same_dataset(out, fresh);
  // Nothing left to do: the file stays as it is.
  const auto before = std::filesystem::last_write_time(out);
  const DatagenResult again = run_datagen(spec_from_yaml(yaml, {"splits.train.count=9"}), quiet());
  EXPECT_EQ(again.labelled, 0);
  EXPECT_EQ(std::filesystem::last_write_time(out), before);
}

TEST(DatasetRoundTrip, AnotherConfigOnTheSameOutputIsRefusedNamingTheKey) {
  const auto dir = scratch_dir();
  const std::string out = (dir / "x.h5").string();
  const std::string yaml = small_config("tsp", out, 3, 1);
  run_datagen(spec_from_yaml(yaml), quiet());
  try {
    run_datagen(spec_from_yaml(yaml, {"seed=6"}), quiet());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr(out + ": was made with another config ('seed' differs)"));
  }
}

TEST(DatasetRoundTrip, EmptySplitsAndCountZeroWork) {
  const auto dir = scratch_dir();
  const std::string out = (dir / "x.h5").string();
  const DatagenResult r = run_datagen(spec_from_yaml(small_config("jssp", out, 0, 1)), quiet());
  EXPECT_TRUE(r.complete);
  const DatasetReader reader = DatasetReader::open(out);
  EXPECT_EQ(reader.size("train"), 0);
  EXPECT_EQ(reader.size("test"), 1);
  EXPECT_TRUE(reader.read("train", 0, 0).empty());
  EXPECT_THROW(reader.read("train", 0, 1), Error);
  EXPECT_THROW(reader.read("nosuch", 0, 1), Error);
}

TEST(DatasetRoundTrip, WriterRefusesOutOfOrderRecordsAndLeavesNoTempFile) {
  const auto dir = scratch_dir();
  const std::string out = (dir / "x.h5").string();
  {
    DatasetWriter writer(out, problems::problem_by_name("tsp"), "problem: tsp\n");
    SplitInfo info{"train", 2, {{"", {}}}, {{"all", 3, 3}}};
    writer.begin_split(info);
    Record r;
    r.index = 1;
    r.n = 3;
    r.instance.real_arrays["coords"] = {0, 0, 1, 0, 0, 1};
    r.label.solution = problems::Solution::flat({0, 1, 2});
    writer.append({r});
    EXPECT_THROW(writer.append({r}), Error);
    EXPECT_TRUE(std::filesystem::exists(out + ".tmp"));
  }
  EXPECT_FALSE(std::filesystem::exists(out + ".tmp"));
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace falcon::data
