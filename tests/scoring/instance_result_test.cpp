// One instances.jsonl line: what the model wrote travels as it was, or as valid UTF-8 when it was not.
#include <gtest/gtest.h>

#include "falcon/core/error.h"
#include "falcon/scoring/instance_result.h"

namespace falcon::scoring {
namespace {

TEST(InstanceResult, TheModelsTextIsKeptAndBytesThatAreNotUtf8BecomeReplacementCharacters) {
  InstanceResult r;
  r.row = "greedy";
  r.solution = "Route: [#0, #1], Objective: 1.00";
  r.text = "Route: [#0 (7), #1 (3)], Objective: 9.99";
  EXPECT_EQ(to_json(r)["text"], r.text);
  EXPECT_EQ(to_json(r)["solution"], r.solution);

  r.text = std::string("Route: [\xAA#1") + "\xC3";  // a stray byte and a cut two-byte character
  const auto line = to_json(r).dump();              // would throw on the raw bytes
  EXPECT_EQ(nlohmann::json::parse(line)["text"], "Route: [\xEF\xBF\xBD#1\xEF\xBF\xBD");
}

// falcon_eval --resume reads its own lines back: every field round-trips, to the last bit of a double.
TEST(InstanceResult, ALineReadBackIsTheResultThatWroteIt) {
  InstanceResult r;
  r.row = "FALCON adaptive";
  r.instance = "tsp-n20-s7";
  r.key = 18446744073709551557ull;  // above 2^63: keys are unsigned 64-bit
  r.n = 20;
  r.feasible_raw = false;
  r.feasible = true;
  r.objective = 3.8312493217;
  r.reference = 0.1 + 0.2;
  r.gap = 1.0 / 3.0;
  r.repaired = true;
  r.repair_distance = 2;
  r.samples = 64;
  r.samples_drawn = 64;
  r.samples_feasible_raw = 41;
  r.consistency = 0.0034722222222222;
  r.stop = "budget";
  r.seconds = {1.5, 1.25, 0.125, 0.0625, 1e-7, 0};
  r.solution = "Route: [#0, #1]";
  r.text = "Route: [#0 (7), #1";
  const std::string line = to_json(r).dump();
  const InstanceResult back = instance_result_from_json(nlohmann::json::parse(line));
  EXPECT_EQ(to_json(back).dump(), line);
  EXPECT_EQ(*back.reference, *r.reference);
  EXPECT_FALSE(back.confidence.has_value());

  auto missing = nlohmann::json::parse(line);
  missing.erase("samples_drawn");
  try {
    instance_result_from_json(missing);
    FAIL() << "a line without samples_drawn was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("samples_drawn"), std::string::npos) << e.what();
  }
  auto mistyped = nlohmann::json::parse(line);
  mistyped["feasible"] = "yes";
  EXPECT_THROW(instance_result_from_json(mistyped), Error);
}

}  // namespace
}  // namespace falcon::scoring
