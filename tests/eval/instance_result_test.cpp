// One instances.jsonl line: what the model wrote travels as it was, or as valid UTF-8 when it was not.
#include <gtest/gtest.h>

#include "falcon/eval/instance_result.h"

namespace falcon::eval {
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

}  // namespace
}  // namespace falcon::eval
