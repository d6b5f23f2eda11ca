#include "falcon/problems/graph.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "falcon/core/error.h"

namespace falcon::problems {

Graph Graph::from_edges(int n, std::vector<std::pair<int, int>> edges) {
  if (n < 0) throw Error("graph: negative vertex count " + std::to_string(n));
  for (auto& [u, v] : edges) {
    if (u < 0 || u >= n || v < 0 || v >= n) {
      throw Error("graph: edge (" + std::to_string(u) + ", " + std::to_string(v) + ") outside 0.." + std::to_string(n - 1));
    }
    if (u == v) throw Error("graph: self-loop at vertex " + std::to_string(u));
    if (u > v) std::swap(u, v);
  }
  // Generators and complement() emit edges already sorted; sorting millions again is most of their cost.
  if (!std::is_sorted(edges.begin(), edges.end())) std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());

  Graph g;
  g.n = n;
  g.edges = std::move(edges);
  g.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  for (const auto& [u, v] : g.edges) ++g.offsets[u + 1], ++g.offsets[v + 1];
  for (int v = 0; v < n; ++v) g.offsets[v + 1] += g.offsets[v];
  g.adj.resize(2 * g.edges.size());
  std::vector<int> fill(g.offsets.begin(), g.offsets.end() - 1);
  // Edges are sorted by (u, v), so each list comes out ascending: v's smaller neighbours
  // arrive (as u) in ascending order before its larger ones.
  for (const auto& [u, v] : g.edges) g.adj[fill[v]++] = u;
  for (const auto& [u, v] : g.edges) g.adj[fill[u]++] = v;
  return g;
}

bool Graph::adjacent(int u, int v) const {
  if (u < 0 || u >= n || v < 0 || v >= n) return false;
  const auto nb = neighbors(u);
  return std::binary_search(nb.begin(), nb.end(), v);
}

Graph erdos_renyi(int n, double p, Rng& rng) {
  std::vector<std::pair<int, int>> edges;
  for (int u = 0; u < n; ++u) {
    for (int v = u + 1; v < n; ++v) {
      if (rng.bernoulli(p)) edges.emplace_back(u, v);
    }
  }
  return Graph::from_edges(n, std::move(edges));
}

Graph barabasi_albert(int n, int m, Rng& rng) {
  if (m < 1 || m >= n) {
    throw Error("barabasi_albert: needs 1 <= m < n (got m=" + std::to_string(m) + ", n=" + std::to_string(n) + ")");
  }
  std::vector<std::pair<int, int>> edges;
  std::vector<int> endpoints;  // each vertex once per incident edge: uniform draws are degree-proportional
  for (int leaf = 1; leaf <= m; ++leaf) {
    edges.emplace_back(0, leaf);
    endpoints.push_back(0);
    endpoints.push_back(leaf);
  }
  std::vector<int> targets;
  for (int source = m + 1; source < n; ++source) {
    targets.clear();
    while (static_cast<int>(targets.size()) < m) {
      const int t = endpoints[rng.uniform_int(0, static_cast<int>(endpoints.size()) - 1)];
      if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
    }
    for (int t : targets) {
      edges.emplace_back(t, source);
      endpoints.push_back(t);
      endpoints.push_back(source);
    }
  }
  return Graph::from_edges(n, std::move(edges));
}

Graph complement(const Graph& g) {
  std::vector<std::pair<int, int>> edges;
  std::vector<char> row(static_cast<std::size_t>(g.n), 0);
  for (int u = 0; u < g.n; ++u) {
    for (int w : g.neighbors(u)) row[w] = 1;
    for (int v = u + 1; v < g.n; ++v) {
      if (!row[v]) edges.emplace_back(u, v);
    }
    for (int w : g.neighbors(u)) row[w] = 0;
  }
  return Graph::from_edges(g.n, std::move(edges));
}

namespace {

// Largest vertex count the reader accepts: far above any benchmark, low enough that a
// corrupt header cannot make the reader allocate gigabytes.
constexpr long kMaxDimacsVertices = 10000000;

bool parse_long(const std::string& token, long& out) {
  if (token.empty()) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtol(token.c_str(), &end, 10);
  // Every byte a digit: a NUL inside the token would otherwise end it early ("\0124" read as 0).
  return end == token.c_str() + token.size() && end != token.c_str() && errno == 0;
}

}  // namespace

Graph read_dimacs_graph(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open the file (does it exist and is it readable?)");
  long n = -1, header_m = 0, header_line = 0, e_lines = 0, line_no = 0;
  std::vector<std::pair<int, int>> edges;
  std::string line;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF files; the text goes into messages
    std::istringstream tokens(line);  // blanks and tabs separate tokens
    std::vector<std::string> t;
    for (std::string tok; tokens >> tok;) t.push_back(tok);
    if (t.empty() || t[0] == "c") continue;
    if (t[0] == "p") {
      if (n >= 0) throw input_error(path, line_no, "second 'p' line (the first is line " + std::to_string(header_line) + ")");
      if (t.size() != 4 || (t[1] != "edge" && t[1] != "col" && t[1] != "edges") || !parse_long(t[2], n) ||
          !parse_long(t[3], header_m)) {
        throw input_error(path, line_no, "expected 'p edge N M', got '" + line + "'");
      }
      if (n < 1 || n > kMaxDimacsVertices || header_m < 0) {
        throw input_error(path, line_no, "vertex count must be in 1.." + std::to_string(kMaxDimacsVertices) +
                                             " and edge count >= 0, got N=" + t[2] + " M=" + t[3]);
      }
      header_line = line_no;
      edges.reserve(static_cast<std::size_t>(std::min(header_m, 100000000L)));
    } else if (t[0] == "e") {
      if (n < 0) throw input_error(path, line_no, "edge before the 'p edge N M' line");
      long u = 0, v = 0;
      if (t.size() != 3 || !parse_long(t[1], u) || !parse_long(t[2], v)) {
        throw input_error(path, line_no, "expected 'e U V' with two integer vertices, got '" + line + "'");
      }
      if (u < 1 || u > n || v < 1 || v > n) {
        throw input_error(path, line_no, "vertex out of range: 'e " + t[1] + " " + t[2] + "' (vertices are 1.." + std::to_string(n) + ")");
      }
      if (u == v) throw input_error(path, line_no, "self-loop 'e " + t[1] + " " + t[2] + "' (MIS/MVC graphs have none)");
      edges.emplace_back(static_cast<int>(u - 1), static_cast<int>(v - 1));
      ++e_lines;
    } else {
      throw input_error(path, line_no, "unknown line type '" + t[0] + "' (a DIMACS graph has only 'c', 'p' and 'e' lines)");
    }
  }
  if (n < 0) throw input_error(path, 0, "no 'p edge N M' line (empty file, or not a DIMACS graph?)");
  Graph g = Graph::from_edges(static_cast<int>(n), std::move(edges));
  if (e_lines != header_m && g.m() != header_m) {
    throw input_error(path, header_line, "header says " + std::to_string(header_m) + " edges but the file has " +
                                             std::to_string(e_lines) + " 'e' lines (" + std::to_string(g.m()) +
                                             " distinct edges) up to its end at line " + std::to_string(line_no) +
                                             "; is the file truncated?");
  }
  return g;
}

}  // namespace falcon::problems
