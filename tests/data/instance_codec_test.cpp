#include "falcon/data/instance_codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"
#include "falcon/problems/tsp.h"
#include "falcon/solvers/solver.h"
#include "tests/data/test_util.h"

namespace falcon::data {
namespace {

using ::testing::HasSubstr;

std::vector<problems::GenerateOptions> options_for(const std::string& problem) {
  std::vector<problems::GenerateOptions> out;
  auto add = [&](int n, std::string distribution, std::map<std::string, std::string> params) {
    out.push_back({n, std::move(distribution), std::move(params)});
  };
  if (problem == "mis" || problem == "mvc") {
    add(30, "er", {{"p", "0.2"}});
    add(30, "ba", {{"m", "3"}});
  } else if (problem == "pfsp") {
    add(12, "uniform", {{"m", "4"}});
    add(12, "taillard", {{"m", "5"}});
  } else if (problem == "jssp") {
    add(7, "taillard", {{"m", "4"}});
  } else {
    add(25, "uniform", {});
    add(25, "gm", {{"modes", "3"}});
  }
  return out;
}

// decode(encode(x)) is x: same prompt, same objective of the same solution, same encoding.
TEST(InstanceCodec, RoundTripRebuildsEveryProblemExactly) {
  for (auto name : problems::problem_names()) {
    const std::string p(name);
    const problems::Problem& problem = problems::problem_by_name(p);
    const auto& solver = solvers::solver_by_name(p, testing::test_method(p));
    for (const auto& options : options_for(p)) {
      for (std::uint64_t seed : {1ULL, 0xDEADBEEFCAFEULL}) {
        const auto original = problem.generate(options, seed);
        const InstanceData data = problem.encode_instance(*original);
        for (const FieldSpec& f : problem.instance_fields()) {
          const bool present = data.ints.count(f.name) + data.reals.count(f.name) + data.int_arrays.count(f.name) +
                               data.real_arrays.count(f.name);
          EXPECT_TRUE(present) << p << " lacks " << f.name;
        }
        const auto rebuilt = decode_instance(problem, data, original->size(), original->name, "test");
        EXPECT_EQ(rebuilt->name, original->name);
        EXPECT_EQ(problem.prompt(*rebuilt), problem.prompt(*original)) << p;
        const problems::Solution s = solver.solve(*original, {});
        EXPECT_EQ(problem.objective(*rebuilt, s), problem.objective(*original, s)) << p;
        EXPECT_EQ(problem.feasible(*rebuilt, s), problem.feasible(*original, s)) << p;
        EXPECT_TRUE(problem.encode_instance(*rebuilt) == data) << p;
      }
    }
  }
}

TEST(InstanceCodec, DistancesAreRecomputedBitForBit) {
  const problems::Problem& problem = problems::problem_by_name("tsp");
  const auto original = problem.generate({40, "gm", {}}, 9);
  const auto rebuilt = decode_instance(problem, problem.encode_instance(*original), 40, original->name, "test");
  EXPECT_EQ(dynamic_cast<const problems::tsp::TspInstance&>(*rebuilt).geometry.distance,
            dynamic_cast<const problems::tsp::TspInstance&>(*original).geometry.distance);
}

TEST(InstanceCodec, InconsistentFieldsAreErrorsNamingThePlace) {
  const problems::Problem& tsp = problems::problem_by_name("tsp");
  InstanceData d = tsp.encode_instance(*tsp.generate({10, "", {}}, 1));
  auto message = [&](const problems::Problem& p, const InstanceData& data, int n) {
    try {
      decode_instance(p, data, n, "x", "f.h5: train[3]");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_THAT(message(tsp, d, 11), HasSubstr("f.h5: train[3]: instance field 'coords' has 20 values, expected 22"));
  d.real_arrays.clear();
  EXPECT_THAT(message(tsp, d, 10), HasSubstr("the instance field 'coords' is missing"));

  const problems::Problem& cvrp = problems::problem_by_name("cvrp");
  InstanceData c = cvrp.encode_instance(*cvrp.generate({10, "", {}}, 1));
  c.ints["capacity"] = 3;  // below a demand: the problem's own validation speaks
  EXPECT_THAT(message(cvrp, c, 10), HasSubstr("f.h5: train[3]: cvrp instance 'x'"));

  const problems::Problem& mis = problems::problem_by_name("mis");
  InstanceData g;
  g.int_arrays["edges"] = {0, 1, 1, 0};
  EXPECT_THAT(message(mis, g, 3), HasSubstr("repeats an edge"));
  g.int_arrays["edges"] = {0, 5};
  EXPECT_THAT(message(mis, g, 3), HasSubstr("f.h5: train[3]"));

  const problems::Problem& jssp = problems::problem_by_name("jssp");
  InstanceData j = jssp.encode_instance(*jssp.generate({3, "", {{"m", "2"}}}, 1));
  j.int_arrays["route_machines"][1] = j.int_arrays["route_machines"][0];
  EXPECT_THAT(message(jssp, j, 3), HasSubstr("does not visit every machine once"));
}

TEST(InstanceCodec, RefusesNonEuclideanRoutingInstances) {
  const problems::Problem& tsp = problems::problem_by_name("tsp");
  auto inst = std::make_shared<problems::tsp::TspInstance>();
  inst->geometry = problems::RoutingGeometry::from_matrix({0, 1, 2, 1, 0, 1, 2, 1, 0}, 3);
  inst->name = "explicit";
  EXPECT_THROW(tsp.encode_instance(*inst), Error);
}

}  // namespace
}  // namespace falcon::data
