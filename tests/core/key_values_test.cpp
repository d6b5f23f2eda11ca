#include "falcon/core/key_values.h"

#include <gtest/gtest.h>

#include "falcon/core/error.h"

namespace falcon {
namespace {

TEST(KeyValues, ParsesAndRejectsMalformedItems) {
  const auto kv = parse_key_values("n=20,count=5,distribution=gm", "--generate");
  EXPECT_EQ(kv.at("n"), "20");
  EXPECT_EQ(kv.at("distribution"), "gm");
  EXPECT_EQ(kv.size(), 3u);
  EXPECT_THROW(parse_key_values("n20", "--generate"), Error);
  EXPECT_THROW(parse_key_values("n=1,n=2", "--generate"), Error);
  try {
    parse_key_values("n=", "--generate");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'n='"), std::string::npos) << e.what();
  }
}

TEST(InputError, NamesFileAndLine) {
  EXPECT_STREQ(input_error("a.tsp", 12, "bad").what(), "a.tsp:12: bad");
  EXPECT_STREQ(input_error("a.tsp", 0, "bad").what(), "a.tsp: bad");
}

}  // namespace
}  // namespace falcon
