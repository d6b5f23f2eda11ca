#include "falcon/data/datagen_spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"
#include "falcon/solvers/solver.h"
#include "tests/data/test_util.h"

namespace falcon::data {
namespace {

using ::testing::HasSubstr;
using testing::spec_from_yaml;

std::string error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    spec_from_yaml(yaml, overrides);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

const std::string kBase = testing::small_config("tsp", "out.h5");

TEST(DatagenSpec, ReadsSplitsSizesDistributionsAndDefaults) {
  const DatagenSpec spec = spec_from_yaml(kBase);
  EXPECT_EQ(spec.problem, "tsp");
  EXPECT_EQ(spec.seed, 5u);
  ASSERT_EQ(spec.splits.size(), 2u);
  EXPECT_EQ(spec.splits[0].name, "train");
  EXPECT_EQ(spec.splits[0].count, 6);
  EXPECT_EQ(spec.splits[0].buckets, (std::vector<BucketSpec>{{"n8-14", 8, 14}}));
  EXPECT_EQ(spec.splits[1].buckets, (std::vector<BucketSpec>{{"small", 5, 7}, {"large", 15, 18}}));
  ASSERT_EQ(spec.splits[0].distributions.size(), 2u);
  EXPECT_EQ(spec.splits[0].distributions[1].name, "gm");
  EXPECT_EQ(spec.label.method, "nearest_neighbor");
  EXPECT_EQ(spec.label.time_limit_s, 0.0);
  EXPECT_THAT(spec.config_yaml, HasSubstr("time_limit_s: 0"));  // the default, written down
  EXPECT_THAT(spec.identity_yaml, ::testing::Not(HasSubstr("count")));
  EXPECT_THAT(spec.identity_yaml, ::testing::Not(HasSubstr("threads")));
}

TEST(DatagenSpec, ListSizesAndSharedParamsMergeWithTheirOwn) {
  const DatagenSpec spec = spec_from_yaml(
      "problem: mis\nsizes: {list: [20, 30]}\nparams: {p: 0.2}\n"
      "distributions: [er, {name: er, params: {p: 0.5}}]\nlabel: {method: greedy}\nsplits: {train: {count: 4}}\n");
  EXPECT_EQ(spec.splits[0].buckets, (std::vector<BucketSpec>{{"n20", 20, 20}, {"n30", 30, 30}}));
  EXPECT_EQ(spec.splits[0].distributions[0].params.at("p"), "0.2");
  EXPECT_EQ(spec.splits[0].distributions[1].params.at("p"), "0.5");
  EXPECT_EQ(spec.output, "data/mis.h5");
}

TEST(DatagenSpec, TopLevelDefaultsAreCheckedEvenWhenEverySplitReplacesThem) {
  const std::string yaml =
      "problem: tsp\nsizes: {range: [5, 6]}\ndistributions: [uniform]\nlabel: {method: nearest_neighbor}\n"
      "splits: {train: {count: 1, sizes: {list: [7]}, distributions: [gm]}}\n";
  EXPECT_EQ(spec_from_yaml(yaml).splits[0].buckets, (std::vector<BucketSpec>{{"n7", 7, 7}}));
  EXPECT_THAT(error_of(yaml, {"sizes.rnage=[1, 2]"}), HasSubstr("unknown key 'sizes.rnage'"));
}

TEST(DatagenSpec, ErrorsNameTheKeyAndWhatIsKnown) {
  EXPECT_THAT(error_of(kBase + "labl: {}\n"), HasSubstr("unknown key 'labl'"));
  EXPECT_THAT(error_of(kBase, {"label.methd=x"}), HasSubstr("unknown key 'label.methd' (known keys in 'label': method, time_limit_s)"));
  EXPECT_THAT(error_of(kBase, {"splits.train.cuont=3"}), HasSubstr("unknown key 'splits.train.cuont'"));
  EXPECT_THAT(error_of(kBase, {"label.method=reference_typo"}), HasSubstr("known methods: nearest_neighbor"));
  EXPECT_THAT(error_of(kBase, {"problem=tspp"}), HasSubstr("known problems: tsp"));
  EXPECT_THAT(error_of(kBase, {"sizes={range: [10, 20], list: [3]}"}), HasSubstr("needs exactly one of range, list, buckets (found: range, list)"));
  EXPECT_THAT(error_of(kBase, {"sizes={range: [20, 10]}"}), HasSubstr("empty range"));
  EXPECT_THAT(error_of(kBase, {"sizes={range: [0, 10]}"}), HasSubstr("not a size"));
  EXPECT_THAT(error_of(kBase, {"distributions=[uniform, {name: gm, params: {sigmaa: 1}}]"}),
              HasSubstr("split 'train', distribution 'gm', n = 8: tsp generator: unknown key 'sigmaa'"));
  EXPECT_THAT(error_of(kBase, {"distributions=[]"}), HasSubstr("at least one distribution"));
  EXPECT_THAT(error_of(kBase, {"splits.train.count=-1"}), HasSubstr("count must be >= 0"));
  EXPECT_THAT(error_of(kBase, {"splits={}"}), HasSubstr("at least one split"));
  EXPECT_THAT(error_of(kBase, {"splits.bad/name.count=1"}), HasSubstr("must use letters"));
  EXPECT_THAT(error_of("problem: mis\nsizes: {range: [3, 5]}\ndistributions: [{name: ba, params: {m: 4}}]\n"
                       "label: {method: greedy}\nsplits: {train: {count: 1}}\n"),
              HasSubstr("ba needs 1 <= m < n"));
}

TEST(DatagenSpec, InstanceKIsTheSameWhateverTheCount) {
  const DatagenSpec small = spec_from_yaml(kBase);
  const DatagenSpec large = spec_from_yaml(kBase, {"splits.train.count=1000", "threads=1"});
  EXPECT_EQ(small.identity_yaml, large.identity_yaml);
  const problems::Problem& tsp = problems::problem_by_name("tsp");
  for (std::int64_t k = 0; k < small.splits[0].count; ++k) {
    const ItemPlan a = plan_item(small.seed, small.splits[0], k), b = plan_item(large.seed, large.splits[0], k);
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.n, b.n);
    EXPECT_EQ(tsp.prompt(*generate_item(tsp, small.splits[0], a)), tsp.prompt(*generate_item(tsp, large.splits[0], b)));
  }
}

TEST(DatagenSpec, SplitsHaveDisjointSeedsAndBucketsMeetEveryDistribution) {
  const DatagenSpec spec = spec_from_yaml(kBase, {"splits.val.count=10"});
  std::set<std::uint64_t> seeds;
  std::size_t total = 0;
  for (const SplitInfo& split : spec.splits) {
    for (std::int64_t k = 0; k < 2000; ++k) {
      const ItemPlan plan = plan_item(spec.seed, split, k);
      seeds.insert(plan.seed);
      seeds.insert(plan.solver_seed);
      total += 2;
      const BucketSpec& b = split.buckets[plan.bucket];
      EXPECT_GE(plan.n, b.min_n);
      EXPECT_LE(plan.n, b.max_n);
    }
  }
  EXPECT_EQ(seeds.size(), total);  // no stream is shared between splits, items or roles
  // Test split: 2 buckets x 2 distributions, cycled so the first 4 instances cover all pairs.
  std::set<std::pair<int, int>> pairs;
  for (std::int64_t k = 0; k < 4; ++k) {
    const ItemPlan plan = plan_item(spec.seed, spec.splits[1], k);
    pairs.insert({plan.bucket, plan.distribution});
  }
  EXPECT_EQ(pairs.size(), 4u);
  EXPECT_NE(split_seed(5, "train"), split_seed(5, "test"));
  EXPECT_NE(split_seed(5, "train"), split_seed(6, "train"));
}

TEST(DatagenSpec, EveryShippedConfigReads) {
  // configs/data: every file reads (labelled with a quick method of its problem, so the test does
  // not depend on the reference solvers' speed); each problem has at least its small default and
  // its paper-protocol config.
  const auto dir = std::filesystem::path(FALCON_FIXTURES_DIR).parent_path().parent_path() / "configs" / "data";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    Config config = Config::from_file(entry.path().string());
    const std::string problem = config.get_string("problem");
    const std::string method = config.get_string("label.method");
    EXPECT_TRUE(method == "reference" || method.rfind("reference_toward_", 0) == 0) << entry.path() << ": " << method;
    EXPECT_NO_THROW(solvers::solver_by_name(problem, method)) << entry.path();
    config.set_override("label.method=" + testing::test_method(problem));
    EXPECT_NO_THROW(read_datagen_spec(config)) << entry.path();
    ++count;
  }
  EXPECT_GE(count, 2 * static_cast<int>(problems::problem_names().size()));
}

}  // namespace
}  // namespace falcon::data
