#include "falcon/problems/routing_geometry.h"

#include <gtest/gtest.h>

namespace falcon::problems {
namespace {

// Four points on a line at 0, 1, 3 and 3 (two coincide): nearest first, ties by index.
TEST(NearestNeighbours, NearestFirstTiesByIndexCappedAndFromFirst) {
  const auto g = RoutingGeometry::euclidean({{0, 0}, {1, 0}, {3, 0}, {3, 0}});
  const auto two = nearest_neighbours(g, 2);
  EXPECT_EQ(two[0], (std::vector<int>{1, 2}));
  EXPECT_EQ(two[1], (std::vector<int>{0, 2}));
  EXPECT_EQ(two[3], (std::vector<int>{2, 1}));
  EXPECT_EQ(nearest_neighbours(g, 10)[0], (std::vector<int>{1, 2, 3}));  // at most n - 1
  EXPECT_TRUE(nearest_neighbours(g, 0)[0].empty());
  const auto customers = nearest_neighbours(g, 2, /*first=*/1);  // node 0 (the depot) is nobody's neighbour
  EXPECT_EQ(customers[0], (std::vector<int>{1, 2}));
  EXPECT_EQ(customers[1], (std::vector<int>{2, 3}));
  EXPECT_EQ(customers[2], (std::vector<int>{3, 1}));
}

}  // namespace
}  // namespace falcon::problems
