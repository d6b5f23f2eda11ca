#include "falcon/problems/tsplib.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include <unistd.h>

#include "falcon/core/error.h"
#include "falcon/problems/tsp.h"
#include "tests/benchmark_files.h"

namespace falcon::problems {
namespace {

const std::string kData = std::string(FALCON_FIXTURES_DIR) + "/tsp/";
const std::string kBench = std::string(FALCON_BENCHMARKS_DIR) + "/tsp/";

std::string error_of(const std::string& path) {
  try {
    read_tsplib(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Tsplib, ReadsCoordinatesWithNintDistances) {
  const TsplibFile f = read_tsplib(kData + "square5.tsp");
  EXPECT_EQ(f.dimension, 5);
  EXPECT_EQ(f.header.at("NAME"), "square5");
  EXPECT_DOUBLE_EQ(f.geometry.d(0, 1), 10.0);
  EXPECT_DOUBLE_EQ(f.geometry.d(0, 2), 14.0);  // nint(14.142)
  EXPECT_DOUBLE_EQ(f.geometry.d(0, 4), 6.0);   // nint(5.83)
}

TEST(Tsplib, NintOfDistancesBeyondAnyIntegerType) {
  // Regression (benchmark-file fuzzing): nint was (int)(x + 0.5), undefined for a distance past
  // INT_MAX; it is now done in doubles, exact for every representable length.
  const auto path = std::filesystem::temp_directory_path() / ("falcon_nint_" + std::to_string(::getpid()) + ".tsp");
  {
    std::ofstream out(path);
    out << "NAME: far\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n"
        << "1 0 0\n2 3e150 0\n3 0 4e10\nEOF\n";
  }
  const TsplibFile f = read_tsplib(path.string());
  std::filesystem::remove(path);
  EXPECT_DOUBLE_EQ(f.geometry.d(0, 1), 3e150);
  EXPECT_DOUBLE_EQ(f.geometry.d(0, 2), 4e10);  // past INT_MAX, still exact
  EXPECT_GE(f.geometry.d(1, 2), 3e150);
}

TEST(Tsplib, ReadsExplicitUpperRowSymmetrically) {
  const TsplibFile f = read_tsplib(kData + "explicit_upper_row.tsp");
  EXPECT_DOUBLE_EQ(f.geometry.d(0, 3), 3.0);
  EXPECT_DOUBLE_EQ(f.geometry.d(3, 0), 3.0);
  EXPECT_DOUBLE_EQ(f.geometry.d(1, 2), 4.0);
  EXPECT_DOUBLE_EQ(f.geometry.d(2, 3), 6.0);
}

TEST(Tsplib, OptimalTourFileScoresItsLength) {
  const auto inst = tsp::read_file(kData + "square5.tsp");
  const Solution tour = tsp::read_tour_file(kData + "square5.opt.tour", inst->size());
  EXPECT_EQ(tour.items(), (std::vector<int>{0, 4, 1, 2, 3}));
  EXPECT_TRUE(tsp::problem().feasible(*inst, tour));
  EXPECT_DOUBLE_EQ(tsp::problem().objective(*inst, tour), 6 + 6 + 10 + 10 + 10);
  EXPECT_THROW(tsp::read_tour_file(kData + "square5.opt.tour", 6), Error);
}

TEST(Tsplib, MalformedFilesNameFileAndLine) {
  EXPECT_NE(error_of(kData + "truncated.tsp").find("truncated.tsp:8: NODE_COORD_SECTION ends early"), std::string::npos)
      << error_of(kData + "truncated.tsp");
  EXPECT_NE(error_of(kData + "bad_number.tsp").find("bad_number.tsp:7: NODE_COORD_SECTION: '1O' is not a number"), std::string::npos)
      << error_of(kData + "bad_number.tsp");
  EXPECT_NE(error_of(kData + "unsupported_weight.tsp").find("EDGE_WEIGHT_TYPE 'MAN_3D' is not supported"), std::string::npos);
  EXPECT_NE(error_of(kData + "no_dimension.tsp").find("no_dimension.tsp:4: NODE_COORD_SECTION before a positive DIMENSION"), std::string::npos)
      << error_of(kData + "no_dimension.tsp");
  EXPECT_NE(error_of(kData + "missing.tsp").find("cannot open"), std::string::npos);
  // Found by the benchmark-file fuzzer: a damaged DIMENSION allocated its rows before reading them
  // (334 million here: out of memory). It is refused on its line.
  EXPECT_NE(error_of(kData + "huge_dimension.vrp").find("huge_dimension.vrp:3: DIMENSION 334444444 is more nodes than"),
            std::string::npos)
      << error_of(kData + "huge_dimension.vrp");
  // Also found by it (UndefinedBehaviorSanitizer): "nan" read as a coordinate, and a node id far
  // beyond int, converted before it was checked.
  EXPECT_NE(error_of(kData + "nan_coordinate.tsp").find("nan_coordinate.tsp:7: NODE_COORD_SECTION: 'nan' is not a finite number"),
            std::string::npos)
      << error_of(kData + "nan_coordinate.tsp");
  EXPECT_NE(error_of(kData + "huge_node_id.tsp").find("huge_node_id.tsp:7: NODE_COORD_SECTION: node id"), std::string::npos)
      << error_of(kData + "huge_node_id.tsp");
}

// Every TSPLIB file of the benchmark set reads with the DIMENSION its README lists.
TEST(Tsplib, EveryBenchmarkInstanceReads) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  std::ifstream readme(kBench + "README.md");
  ASSERT_TRUE(readme) << "missing " << kBench << "README.md";
  const std::regex row(R"(^\| (\w+) \| (\d+) \| (\d+) \|)");
  std::map<std::string, int> sizes;
  for (std::string line; std::getline(readme, line);) {
    std::smatch m;
    if (std::regex_search(line, m, row)) sizes[m[1]] = std::stoi(m[2]);
  }
  ASSERT_EQ(sizes.size(), 29u);
  for (const auto& [name, n] : sizes) {
    const auto inst = tsp::read_file(kBench + "instances/" + name + ".tsp");
    EXPECT_EQ(inst->size(), n) << name;
    EXPECT_EQ(inst->name, name);
  }
}

}  // namespace
}  // namespace falcon::problems
