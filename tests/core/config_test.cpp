#include "falcon/core/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>

#include "falcon/core/error.h"
#include "tests/error_of.h"

namespace falcon {
namespace {

using falcon::test_support::error_of;

using ::testing::HasSubstr;

const char* kYaml = R"(problem: tsp
seed: 7
sizes:
  range: [10, 30]
distributions:
  - uniform
  - {name: gm, params: {modes: 3}}
label:
  method: neh
  time_limit_s: 0.5
)";

TEST(Config, TypedGettersReadValuesAndDefaults) {
  Config c = Config::from_string(kYaml, "t.yaml");
  EXPECT_EQ(c.get_string("problem"), "tsp");
  EXPECT_EQ(c.get_int("seed"), 7);
  EXPECT_EQ(c.get_uint("seed"), 7u);
  EXPECT_EQ(c.get_int_list("sizes.range"), (std::vector<std::int64_t>{10, 30}));
  EXPECT_EQ(c.list_size("distributions"), 2);
  EXPECT_EQ(c.get_string("distributions[0]"), "uniform");
  EXPECT_EQ(c.get_string("distributions[1].name"), "gm");
  EXPECT_EQ(c.get_string_map("distributions[1].params").at("modes"), "3");
  EXPECT_DOUBLE_EQ(c.get_double("label.time_limit_s"), 0.5);
  EXPECT_EQ(c.get_string("label.method"), "neh");
  EXPECT_EQ(c.get_int("threads", 4), 4);
  EXPECT_EQ(c.get_bool("label.check", true), true);
  EXPECT_EQ(c.get_bool_or_auto("label.check"), std::optional<bool>(true));
  EXPECT_EQ(c.get_bool_or_auto("notes", std::nullopt), std::nullopt);  // absent: the default, written as auto
  EXPECT_NE(c.to_yaml().find("notes: auto"), std::string::npos);
  EXPECT_TRUE(c.is_map("sizes"));
  EXPECT_TRUE(c.is_list("distributions"));
  EXPECT_FALSE(c.has("missing"));
  EXPECT_EQ(c.keys("label"), (std::vector<std::string>{"method", "time_limit_s", "check"}));
  EXPECT_NO_THROW(c.check_unused());
}

TEST(Config, UnknownKeyNamesFullPathLineAndKnownKeys) {
  Config c = Config::from_string(std::string(kYaml) + "  methd: x\n", "t.yaml");
  c.get_string("problem");
  c.get_int("seed");
  c.get_int_list("sizes.range");
  c.get_string("distributions[0]");
  c.get_string("distributions[1].name");
  c.get_string_map("distributions[1].params");
  c.get_string("label.method");
  c.get_double("label.time_limit_s");
  const std::string e = error_of([&] { c.check_unused(); });
  EXPECT_THAT(e, HasSubstr("t.yaml:11: unknown key 'label.methd'"));
  EXPECT_THAT(e, HasSubstr("known keys in 'label': method, time_limit_s"));
}

TEST(Config, UnknownKeysInsideListItemsAndAtTopLevel) {
  Config c = Config::from_string("a: [{name: x, nmae: y}]\nb: 1\n", "t.yaml");
  c.get_string("a[0].name");
  EXPECT_THAT(error_of([&] { c.check_unused(); }), HasSubstr("unknown key 'a[0].nmae' (known keys in 'a[0]': name)"));
  Config d = Config::from_string("a: 1\nzz: 2\n", "t.yaml");
  d.get_int("a");
  d.get_int("b", 3);
  EXPECT_THAT(error_of([&] { d.check_unused(); }), HasSubstr("t.yaml:2: unknown key 'zz' (known top-level keys: a, b)"));
  d.mark_known("zz");
  EXPECT_NO_THROW(d.check_unused());
}

TEST(Config, TypeErrorsNameKeyAndLine) {
  Config c = Config::from_string("n: ten\nx: 1.5\nlist: 3\nflag: maybe\nneg: -1\n", "t.yaml");
  EXPECT_THAT(error_of([&] { c.get_int("n"); }), HasSubstr("t.yaml:1: key 'n': expected an integer, got 'ten'"));
  EXPECT_THAT(error_of([&] { c.get_int("x"); }), HasSubstr("expected an integer, got '1.5'"));
  EXPECT_THAT(error_of([&] { c.get_int_list("list"); }), HasSubstr("key 'list': expected a list"));
  EXPECT_THAT(error_of([&] { c.get_bool("flag"); }), HasSubstr("expected true or false"));
  EXPECT_THAT(error_of([&] { c.get_bool_or_auto("flag"); }), HasSubstr("t.yaml:4: key 'flag': expected true, false or auto, got 'maybe'"));
  EXPECT_THAT(error_of([&] { c.get_uint("neg"); }), HasSubstr("expected a non-negative integer"));
  EXPECT_THAT(error_of([&] { c.get_string("absent"); }), HasSubstr("missing required key 'absent'"));
  EXPECT_THAT(error_of([] { Config::from_string("a: [1, 2\n", "bad.yaml"); }), HasSubstr("bad.yaml:"));
  EXPECT_THAT(error_of([] { Config::from_string("- 1\n- 2\n", "l.yaml"); }), HasSubstr("top level of a config must be a map"));
  EXPECT_THAT(error_of([] { Config::from_file("/nonexistent/x.yaml"); }), HasSubstr("/nonexistent/x.yaml: cannot open"));
}

TEST(Config, OverridesSetNestedKeysListsAndAreNamedInErrors) {
  Config c = Config::from_string(kYaml, "t.yaml");
  c.set_overrides({"label.method=greedy", "sizes.range=[20, 40]", "splits.test.count=5", "distributions[0]=gm",
                   "seed=x"});
  EXPECT_EQ(c.get_string("label.method"), "greedy");
  EXPECT_EQ(c.get_int_list("sizes.range"), (std::vector<std::int64_t>{20, 40}));
  EXPECT_EQ(c.get_int("splits.test.count"), 5);
  EXPECT_EQ(c.get_string("distributions[0]"), "gm");
  EXPECT_THAT(error_of([&] { c.get_int("seed"); }), HasSubstr("t.yaml (override 'seed=x'): key 'seed': expected an integer"));
  c.set_override("label.metod=x");
  c.get_double("label.time_limit_s");
  c.get_string_map("distributions[1].params");
  c.get_string("distributions[1].name");
  c.get_string("problem");
  EXPECT_THAT(error_of([&] { c.check_unused(); }), HasSubstr("(override 'label.metod=x'): unknown key 'label.metod'"));
  Config d = Config::from_string(kYaml, "t.yaml");
  d.set_override("labl.x=1");
  for (const char* key : {"problem", "seed", "sizes", "distributions", "label"}) d.mark_known(key);
  EXPECT_THAT(error_of([&] { d.check_unused(); }), HasSubstr("t.yaml (override 'labl.x=1'): unknown key 'labl'"));
  EXPECT_THAT(error_of([&] { c.set_override("novalue"); }), HasSubstr("not of the form"));
  EXPECT_THAT(error_of([&] { c.set_override("distributions[5]=x"); }), HasSubstr("no list item 5"));
  EXPECT_THAT(error_of([&] { c.set_override("seed.sub=1"); }), HasSubstr("not a map"));
}

TEST(Config, ResolvedYamlHoldsDefaultsAndReadsBackTheSame) {
  Config c = Config::from_string(kYaml, "t.yaml");
  c.get_int("threads", 2);
  c.get_double("label.sigma", 0.07);
  c.get_string("output", "data/x.h5");
  const std::string yaml = c.to_yaml();
  EXPECT_THAT(yaml, HasSubstr("threads: 2"));
  EXPECT_THAT(yaml, HasSubstr("sigma: 0.07"));
  EXPECT_THAT(yaml, HasSubstr("range: [10, 30]"));
  Config back = Config::from_string(yaml, "resolved");
  EXPECT_EQ(back.get_int("threads"), 2);
  EXPECT_DOUBLE_EQ(back.get_double("label.sigma"), 0.07);
  EXPECT_EQ(back.get_string("distributions[1].params.modes"), "3");
  EXPECT_EQ(Config::first_difference(yaml, back.to_yaml()), "");

  const auto path = std::filesystem::temp_directory_path() / "falcon_config_test.yaml";
  c.write(path.string());
  EXPECT_EQ(Config::from_file(path.string()).to_yaml(), yaml);
  std::filesystem::remove(path);
}

TEST(Config, CopiesAreIndependent) {
  Config a = Config::from_string(kYaml, "t.yaml");
  Config b = a;
  b.set_override("label.method=x");
  EXPECT_EQ(a.get_string("label.method"), "neh");
  EXPECT_EQ(b.get_string("label.method"), "x");
  a = b;
  b.set_override("label.method=y");
  EXPECT_EQ(a.get_string("label.method"), "x");
}

TEST(Config, DifferencesAndPrunedCopies) {
  Config a = Config::from_string("x: 1\nsplits: {train: {count: 5, sizes: 1}, test: {count: 2}}\nlabel: {method: neh}\n", "a");
  Config b = Config::from_string("x: 1\nsplits: {train: {count: 9, sizes: 1}, test: {count: 4}}\nlabel: {method: nn}\n", "b");
  EXPECT_EQ(Config::first_difference(a.to_yaml(), b.to_yaml()), "splits.train.count");
  const std::vector<std::string> ignore = {"splits.*.count"};
  EXPECT_EQ(Config::first_difference(a.to_yaml_without(ignore), b.to_yaml_without(ignore)), "label.method");
  EXPECT_EQ(Config::first_difference("a: [1, 2]", "a: [1, 3]"), "a[1]");
  EXPECT_EQ(Config::first_difference("a: 1", "a: 1\nb: 2"), "b");
  // A key inside one list item: the same key of the other items still counts.
  Config c = Config::from_string("stages: [{steps: 5, lr: 1}, {steps: 3, lr: 2}]\n", "c");
  Config d = Config::from_string("stages: [{steps: 9, lr: 1}, {steps: 4, lr: 2}]\n", "d");
  const std::vector<std::string> first = {"stages[0].steps", "stages[7].steps", "stages[1]"};
  EXPECT_EQ(Config::first_difference(c.to_yaml_without(first), d.to_yaml_without(first)), "stages[1].steps");
}

}  // namespace
}  // namespace falcon
