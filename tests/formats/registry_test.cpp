// The style registry: every style text.style names is one Format, found by its own name; the
// paper's text is the problems' own, so it has none.
#include "falcon/formats/registry.h"

#include <gtest/gtest.h>

#include <string>

#include "falcon/problems/registry.h"

namespace falcon::formats {
namespace {

TEST(FormatRegistry, EveryStyleIsFoundByItsOwnName) {
  EXPECT_EQ(known_styles(),
            "paper, compact, compact_echo, compact_state, compact_ranked, compact_ranked_opening, "
            "compact_ranked_conflict, compact_ranked_keyed, compact_insert");
  for (const char* name : {"compact", "compact_echo", "compact_state", "compact_ranked", "compact_ranked_opening",
                           "compact_ranked_conflict", "compact_ranked_keyed", "compact_insert"}) {
    const Format* format = format_by_name(name);
    ASSERT_NE(format, nullptr) << name;
    EXPECT_EQ(format->name(), name);
    EXPECT_EQ(format->writes_notes(), std::string(name) != "compact") << name;
  }
  EXPECT_EQ(format_by_name("paper"), nullptr);
  EXPECT_EQ(format_by_name("echo"), nullptr);
}

TEST(FormatRegistry, ShapesKeepThePapersListsAndWriteIds) {
  const problems::Problem& cvrp = problems::problem_by_name("cvrp");
  for (const char* name : {"compact", "compact_echo", "compact_ranked"}) {
    const problems::TextShape shape = format_by_name(name)->shape(cvrp);
    EXPECT_EQ(shape.keyword, cvrp.shape().keyword) << name;
    EXPECT_EQ(shape.nested, cvrp.shape().nested) << name;
    EXPECT_EQ(shape.first_index, cvrp.shape().first_index) << name;
    EXPECT_EQ(shape.index_prefix, kCompactIndexPrefix) << name;
  }
  EXPECT_EQ(format_by_name("compact")->shape(cvrp).grammar, "cvrp_compact");
  EXPECT_EQ(format_by_name("compact_state")->shape(cvrp).grammar, "cvrp_echo");
  EXPECT_EQ(format_by_name("compact_ranked")->shape(cvrp).grammar, "cvrp_ranked");
  EXPECT_EQ(format_by_name("compact_ranked")->shape(problems::problem_by_name("mis")).grammar, "mis_echo");
}

}  // namespace
}  // namespace falcon::formats
