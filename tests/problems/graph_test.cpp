#include "falcon/problems/graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <string>

#include "falcon/core/error.h"
#include "tests/benchmark_files.h"

namespace falcon::problems {
namespace {

const std::string kData = std::string(FALCON_FIXTURES_DIR) + "/mis/";
const std::string kBench = std::string(FALCON_BENCHMARKS_DIR) + "/mis/";

// Checks the CSR against the edge list: symmetric, ascending, each edge once per endpoint.
void expect_consistent(const Graph& g) {
  long total = 0;
  for (int v = 0; v < g.n; ++v) {
    int prev = -1;
    for (int w : g.neighbors(v)) {
      EXPECT_GT(w, prev) << "neighbours of " << v << " not ascending";
      EXPECT_NE(w, v);
      EXPECT_TRUE(g.adjacent(w, v));
      prev = w;
    }
    total += g.degree(v);
  }
  EXPECT_EQ(total, 2L * g.m());
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    EXPECT_LT(g.edges[i].first, g.edges[i].second);
    if (i > 0) EXPECT_LT(g.edges[i - 1], g.edges[i]);
  }
}

TEST(Graph, FromEdgesNormalisesAndMerges) {
  const Graph g = Graph::from_edges(4, {{2, 1}, {0, 3}, {1, 2}, {3, 2}});
  EXPECT_EQ(g.edges, (std::vector<std::pair<int, int>>{{0, 3}, {1, 2}, {2, 3}}));
  EXPECT_EQ(g.degree(2), 2);
  EXPECT_TRUE(g.adjacent(3, 0));
  EXPECT_FALSE(g.adjacent(0, 1));
  EXPECT_FALSE(g.adjacent(-1, 0));
  expect_consistent(g);
  EXPECT_THROW(Graph::from_edges(3, {{1, 1}}), Error);
  EXPECT_THROW(Graph::from_edges(3, {{0, 3}}), Error);
}

TEST(Graph, ErdosRenyiIsDeterministicWithTheRightDensity) {
  Rng a(5), b(5), c(6);
  const Graph g = erdos_renyi(200, 0.15, a);
  EXPECT_EQ(g.edges, erdos_renyi(200, 0.15, b).edges);
  EXPECT_NE(g.edges, erdos_renyi(200, 0.15, c).edges);
  // 19900 pairs, mean 2985, sd ~50: a 6-sigma window.
  EXPECT_NEAR(g.m(), 2985, 300);
  expect_consistent(g);
  Rng r(1);
  EXPECT_EQ(erdos_renyi(30, 0.0, r).m(), 0);
  EXPECT_EQ(erdos_renyi(30, 1.0, r).m(), 30 * 29 / 2);
  EXPECT_EQ(erdos_renyi(1, 0.5, r).m(), 0);
}

TEST(Graph, BarabasiAlbertAttachesMDistinctVerticesPerStep) {
  Rng a(9), b(9);
  const int n = 300, m = 4;
  const Graph g = barabasi_albert(n, m, a);
  EXPECT_EQ(g.edges, barabasi_albert(n, m, b).edges);
  EXPECT_EQ(g.m(), m + (n - m - 1) * m);  // star, then m new edges per vertex (never merged)
  for (int v = m + 1; v < n; ++v) EXPECT_GE(g.degree(v), m);
  int max_degree = 0;
  for (int v = 0; v < n; ++v) max_degree = std::max(max_degree, g.degree(v));
  EXPECT_GT(max_degree, 4 * 2 * m);  // preferential attachment makes hubs (ER would not)
  expect_consistent(g);
  EXPECT_EQ(barabasi_albert(2, 1, a).m(), 1);
  EXPECT_THROW(barabasi_albert(4, 4, a), Error);
  EXPECT_THROW(barabasi_albert(4, 0, a), Error);
}

TEST(Graph, ComplementHasTheMissingPairs) {
  Rng rng(3);
  const Graph g = erdos_renyi(40, 0.3, rng);
  const Graph c = complement(g);
  EXPECT_EQ(c.m(), 40 * 39 / 2 - g.m());
  for (int u = 0; u < 40; ++u) {
    for (int v = 0; v < 40; ++v) {
      if (u != v) EXPECT_NE(g.adjacent(u, v), c.adjacent(u, v));
    }
  }
  expect_consistent(c);
  EXPECT_EQ(complement(c).edges, g.edges);
}

TEST(GraphReader, ReadsCrlfTabsAndCommentsOneBased) {
  const Graph g = read_dimacs_graph(kData + "tiny.clq");
  EXPECT_EQ(g.n, 5);
  EXPECT_EQ(g.edges, (std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 2}, {3, 4}}));
  const Graph p = read_dimacs_graph(kData + "path5.mis");
  EXPECT_EQ(p.edges, (std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 3}, {3, 4}}));
  // Header counts 'e' lines; the file lists each edge in both directions.
  EXPECT_EQ(read_dimacs_graph(kData + "both_directions.mis").m(), 2);
}

// The message must name the file and the line (FILE:LINE: what), and say what is wrong.
void expect_error(const std::string& file, const std::string& where, const std::string& what) {
  try {
    read_dimacs_graph(kData + file);
    ADD_FAILURE() << file << " was accepted";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(file + where), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

TEST(GraphReader, MalformedFilesNameFileAndLine) {
  expect_error("bad_e_line.mis", ":3:", "expected 'e U V'");
  expect_error("out_of_range.mis", ":4:", "vertex out of range: 'e 5 6' (vertices are 1..5)");
  expect_error("count_mismatch.mis", ":2:", "header says 4 edges but the file has 3 'e' lines");
  expect_error("truncated.mis", ":4:", "expected 'e U V'");
  expect_error("edge_before_header.mis", ":1:", "edge before the 'p edge N M' line");
  expect_error("self_loop.mis", ":3:", "self-loop");
  expect_error("no_header.mis", ":", "no 'p edge N M' line");
  // Found by instance_file_fuzzer: "p col 667667 \0124", whose edge count strtol read as 0 at the
  // NUL, was accepted as 667,667 isolated vertices.
  expect_error("nul_in_edge_count.clq", ":2:", "expected 'p edge N M'");
  EXPECT_THROW(read_dimacs_graph(kData + "does_not_exist.mis"), Error);
}

struct BenchmarkGraph {
  const char* file;
  int n;
  int m;
};

// Header values of every file in benchmarks/mis (its README table).
const BenchmarkGraph kBenchmarks[] = {
    {"bhoslib/frb30-15-1.mis", 450, 17827},       {"bhoslib/frb30-15-2.mis", 450, 17874},
    {"bhoslib/frb30-15-3.mis", 450, 17809},       {"bhoslib/frb30-15-4.mis", 450, 17831},
    {"bhoslib/frb30-15-5.mis", 450, 17794},       {"dimacs_clique/brock200_2.clq", 200, 9876},
    {"dimacs_clique/brock200_4.clq", 200, 13089}, {"dimacs_clique/brock400_2.clq", 400, 59786},
    {"dimacs_clique/brock400_4.clq", 400, 59765}, {"dimacs_clique/C125.9.clq", 125, 6963},
    {"dimacs_clique/C250.9.clq", 250, 27984},     {"dimacs_clique/gen200_p0.9_44.clq", 200, 17910},
    {"dimacs_clique/gen200_p0.9_55.clq", 200, 17910}, {"dimacs_clique/gen400_p0.9_55.clq", 400, 71820},
    {"dimacs_clique/gen400_p0.9_65.clq", 400, 71820}, {"dimacs_clique/gen400_p0.9_75.clq", 400, 71820},
    {"dimacs_clique/hamming8-4.clq", 256, 20864}, {"dimacs_clique/keller4.clq", 171, 9435},
    {"dimacs_clique/MANN_a27.clq", 378, 70551},   {"dimacs_clique/p_hat300-1.clq", 300, 10933},
    {"dimacs_clique/p_hat300-2.clq", 300, 21928}, {"dimacs_clique/p_hat300-3.clq", 300, 33390},
};

TEST(GraphReader, EveryBenchmarkFileParsesWithItsHeaderCounts) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kBench)) {
    const std::string ext = entry.path().extension().string();
    files += ext == ".clq" || ext == ".mis";
  }
  EXPECT_EQ(files, static_cast<int>(std::size(kBenchmarks))) << "a benchmark file is missing from this table";
  for (const auto& b : kBenchmarks) {
    SCOPED_TRACE(b.file);
    const Graph g = read_dimacs_graph(kBench + b.file);
    EXPECT_EQ(g.n, b.n);
    EXPECT_EQ(g.m(), b.m);
    const Graph c = complement(g);
    EXPECT_EQ(c.m(), b.n * (b.n - 1) / 2 - b.m);
  }
}

TEST(GraphReader, BhoslibGraphsAreThirtyPlantedFifteenCliques) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  // RB-model construction: vertices 15i+1..15i+15 form a clique, so alpha <= 30 (README: = 30).
  const Graph g = read_dimacs_graph(kBench + "bhoslib/frb30-15-1.mis");
  for (int group = 0; group < 30; ++group) {
    for (int a = 15 * group; a < 15 * group + 15; ++a) {
      for (int b = a + 1; b < 15 * group + 15; ++b) ASSERT_TRUE(g.adjacent(a, b)) << a << " " << b;
    }
  }
}

}  // namespace
}  // namespace falcon::problems
