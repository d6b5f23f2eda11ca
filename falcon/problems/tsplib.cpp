#include "falcon/problems/tsplib.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/core/strings.h"

namespace falcon::problems {
namespace {

// The most nodes a file may declare: routing keeps the full n x n distance matrix (20,000 nodes are
// 3.2 GB of doubles), and a larger DIMENSION in a damaged header must not allocate before the
// rows that contradict it are read.
constexpr int kMaxDimension = 20000;

// TSPLIB95 distance functions (Reinelt 1991, section 2).
double nint(double x) { return std::trunc(x + 0.5); }  // (int)(x + 0.5), without a cast that overflows

double geo_radians(double v) {
  const double deg = static_cast<double>(static_cast<long long>(v));  // TSPLIB truncates, not rounds
  return M_PI * (deg + 5.0 * (v - deg) / 3.0) / 180.0;
}

double tsplib_distance(const std::string& type, const Point& a, const Point& b) {
  const double dx = a.x - b.x, dy = a.y - b.y;
  if (type == "EUC_2D") return nint(std::sqrt(dx * dx + dy * dy));
  if (type == "CEIL_2D") return std::ceil(std::sqrt(dx * dx + dy * dy));
  if (type == "ATT") {
    const double r = std::sqrt((dx * dx + dy * dy) / 10.0);
    const double t = nint(r);
    return t < r ? t + 1 : t;
  }
  // GEO
  const double rrr = 6378.388;
  const double lat_a = geo_radians(a.x), lon_a = geo_radians(a.y);
  const double lat_b = geo_radians(b.x), lon_b = geo_radians(b.y);
  const double q1 = std::cos(lon_a - lon_b), q2 = std::cos(lat_a - lat_b), q3 = std::cos(lat_a + lat_b);
  return static_cast<double>(static_cast<long long>(rrr * std::acos(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)) + 1.0));
}

class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path), in_(path) {
    if (!in_) throw Error(path + ": cannot open the file (does it exist and is it readable?)");
  }

  TsplibFile read() {
    TsplibFile f;
    f.path = path_;
    std::vector<Point> coords;
    std::vector<double> weights;
    std::string line;
    while (next_line(line)) {
      const std::string t = trim(line);
      if (t.empty()) continue;
      if (t == "EOF") break;
      const auto colon = t.find(':');
      std::string key = trim(colon == std::string::npos ? t : t.substr(0, colon));
      if (key.size() > 8 && key.compare(key.size() - 8, 8, "_SECTION") == 0) {
        read_section(key, f, coords, weights);
        continue;
      }
      if (colon == std::string::npos) fail("expected 'KEY : VALUE' or a *_SECTION line, got '" + t + "'");
      f.header[key] = trim(t.substr(colon + 1));
      if (key == "DIMENSION") {
        f.dimension = parse_int(f.header[key], "DIMENSION");
        if (f.dimension > kMaxDimension)
          fail("DIMENSION " + std::to_string(f.dimension) + " is more nodes than this program holds (at most " +
               std::to_string(kMaxDimension) + ": the distances are an n x n matrix)");
      }
    }
    build_geometry(f, coords, weights);
    return f;
  }

 private:
  bool next_line(std::string& line) {
    if (has_pending_) {
      line = pending_;
      has_pending_ = false;
      return true;
    }
    if (!std::getline(in_, line)) return false;
    ++line_no_;
    return true;
  }

  [[noreturn]] void fail(const std::string& what) const { throw input_error(path_, line_no_, what); }

  int parse_int(const std::string& s, const std::string& what) const {
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || trim(end) != "" || v < -1000000000L || v > 1000000000L) fail(what + " '" + s + "' is not an integer");
    return static_cast<int>(v);
  }

  void need_dimension(const std::string& section) const {
    if (dimension_ <= 0) fail(section + " before a positive DIMENSION (add a 'DIMENSION : n' line to the header)");
  }

  // Reads whitespace-separated numbers until `count` are read (or, for open-ended sections,
  // until a line that does not start with a number).
  std::vector<double> read_numbers(std::size_t count, const std::string& section) {
    std::vector<double> out;
    std::string line;
    while (out.size() < count && next_line(line)) {
      std::istringstream ss(line);
      std::string tok;
      while (ss >> tok) {
        char* end = nullptr;
        const double v = std::strtod(tok.c_str(), &end);
        if (*end != '\0') fail(section + ": '" + tok + "' is not a number");
        if (!std::isfinite(v)) fail(section + ": '" + tok + "' is not a finite number");
        out.push_back(v);
      }
    }
    if (out.size() < count) fail(section + " ends early: expected " + std::to_string(count) + " numbers, found " + std::to_string(out.size()) + " (truncated file?)");
    if (out.size() > count) fail(section + ": more numbers than expected on the last line");
    return out;
  }

  int node_id(double raw, const std::string& section) const {
    if (!(raw >= 1 && raw <= dimension_) || raw != std::floor(raw))
      fail(section + ": node id " + std::to_string(raw) + " is not in 1.." + std::to_string(dimension_));
    return static_cast<int>(raw) - 1;
  }

  // "id value..." rows, one per node.
  std::vector<std::vector<double>> read_rows(int values_per_row, const std::string& section) {
    need_dimension(section);
    std::vector<std::vector<double>> rows(dimension_);
    std::vector<char> seen(dimension_, 0);
    std::string line;
    for (int r = 0; r < dimension_; ++r) {
      if (!next_line(line)) fail(section + " ends early after " + std::to_string(r) + " of " + std::to_string(dimension_) + " rows (truncated file?)");
      std::istringstream ss(line);
      std::vector<double> vals;
      std::string tok;
      while (ss >> tok) {
        char* end = nullptr;
        vals.push_back(std::strtod(tok.c_str(), &end));
        if (*end != '\0') fail(section + ": '" + tok + "' is not a number");
        if (!std::isfinite(vals.back())) fail(section + ": '" + tok + "' is not a finite number");
      }
      if (vals.empty()) { --r; continue; }
      if (static_cast<int>(vals.size()) != values_per_row + 1) fail(section + ": expected 'id' and " + std::to_string(values_per_row) + " value(s), got " + std::to_string(vals.size()) + " fields");
      const int id = node_id(vals[0], section);
      if (seen[id]) fail(section + ": node " + std::to_string(id + 1) + " appears twice");
      seen[id] = 1;
      rows[id].assign(vals.begin() + 1, vals.end());
    }
    return rows;
  }

  void read_section(const std::string& key, TsplibFile& f, std::vector<Point>& coords, std::vector<double>& weights) {
    dimension_ = f.dimension;
    if (key == "NODE_COORD_SECTION" || key == "DISPLAY_DATA_SECTION") {
      const auto rows = read_rows(2, key);
      if (key == "NODE_COORD_SECTION" || coords.empty()) {
        coords.clear();
        for (const auto& r : rows) coords.push_back({r[0], r[1]});
      }
    } else if (key == "DEMAND_SECTION") {
      for (const auto& r : read_rows(1, key)) f.demands.push_back(r[0]);
    } else if (key == "NODE_SCORE_SECTION") {
      for (const auto& r : read_rows(1, key)) f.scores.push_back(r[0]);
    } else if (key == "DEPOT_SECTION" || key == "TOUR_SECTION") {
      need_dimension(key);
      std::vector<int>& out = key == "DEPOT_SECTION" ? f.depots : f.tour;
      std::string line;
      bool done = false;
      while (!done && next_line(line)) {
        std::istringstream ss(line);
        std::string tok;
        while (ss >> tok) {
          const int v = parse_int(tok, key + " entry");
          if (v == -1) { done = true; break; }
          out.push_back(node_id(v, key));
        }
      }
      if (!done) fail(key + " is not terminated by -1 (truncated file?)");
    } else if (key == "EDGE_WEIGHT_SECTION") {
      need_dimension(key);
      const std::string format = f.header.count("EDGE_WEIGHT_FORMAT") ? f.header.at("EDGE_WEIGHT_FORMAT") : "FULL_MATRIX";
      const std::size_t n = dimension_;
      std::size_t count = 0;
      if (format == "FULL_MATRIX") count = n * n;
      else if (format == "UPPER_ROW" || format == "LOWER_ROW") count = n * (n - 1) / 2;
      else if (format == "UPPER_DIAG_ROW" || format == "LOWER_DIAG_ROW") count = n * (n + 1) / 2;
      else fail("EDGE_WEIGHT_FORMAT '" + format + "' is not supported (FULL_MATRIX, UPPER_ROW, LOWER_ROW, UPPER_DIAG_ROW, LOWER_DIAG_ROW)");
      const std::vector<double> raw = read_numbers(count, key);
      weights.assign(n * n, 0.0);
      std::size_t k = 0;
      auto set = [&](std::size_t i, std::size_t j) { weights[i * n + j] = weights[j * n + i] = raw[k++]; };
      if (format == "FULL_MATRIX") {
        for (std::size_t i = 0; i < n; ++i) for (std::size_t j = 0; j < n; ++j) weights[i * n + j] = raw[k++];
      } else if (format == "UPPER_ROW") {
        for (std::size_t i = 0; i < n; ++i) for (std::size_t j = i + 1; j < n; ++j) set(i, j);
      } else if (format == "LOWER_ROW") {
        for (std::size_t i = 0; i < n; ++i) for (std::size_t j = 0; j < i; ++j) set(i, j);
      } else if (format == "UPPER_DIAG_ROW") {
        for (std::size_t i = 0; i < n; ++i) for (std::size_t j = i; j < n; ++j) set(i, j);
      } else {
        for (std::size_t i = 0; i < n; ++i) for (std::size_t j = 0; j <= i; ++j) set(i, j);
      }
    } else {
      fail("unknown section '" + key + "'");
    }
  }

  void build_geometry(TsplibFile& f, std::vector<Point>& coords, std::vector<double>& weights) {
    if (f.dimension <= 0) fail("no positive DIMENSION in the header");
    const int n = f.dimension;
    if (!f.tour.empty() || (f.header.count("TYPE") && f.header.at("TYPE") == "TOUR")) return;  // .opt.tour has no geometry
    const std::string type = f.header.count("EDGE_WEIGHT_TYPE") ? f.header.at("EDGE_WEIGHT_TYPE") : "";
    if (type == "EXPLICIT") {
      if (weights.empty()) fail("EDGE_WEIGHT_TYPE is EXPLICIT but there is no EDGE_WEIGHT_SECTION");
      f.geometry = RoutingGeometry::from_matrix(std::move(weights), n, std::move(coords));
      return;
    }
    if (type != "EUC_2D" && type != "CEIL_2D" && type != "ATT" && type != "GEO") {
      fail("EDGE_WEIGHT_TYPE '" + type + "' is not supported (EUC_2D, CEIL_2D, ATT, GEO, EXPLICIT)");
    }
    if (static_cast<int>(coords.size()) != n) fail("NODE_COORD_SECTION is missing");
    std::vector<double> m(static_cast<std::size_t>(n) * n, 0.0);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        if (i != j) m[static_cast<std::size_t>(i) * n + j] = tsplib_distance(type, coords[i], coords[j]);
      }
    }
    f.geometry = RoutingGeometry::from_matrix(std::move(m), n, std::move(coords));
  }

  std::string path_;
  std::ifstream in_;
  long line_no_ = 0;
  int dimension_ = 0;
  bool has_pending_ = false;
  std::string pending_;
};

}  // namespace

const std::string& TsplibFile::get(const std::string& key) const {
  auto it = header.find(key);
  if (it == header.end()) throw Error(path + ": the header has no '" + key + "' line");
  return it->second;
}

TsplibFile read_tsplib(const std::string& path) { return Reader(path).read(); }

long find_tsplib_line(const std::string& path, const std::function<bool(const std::string&)>& match) {
  std::ifstream in(path);
  std::string line;
  for (long no = 1; std::getline(in, line); ++no) {
    if (match(trim(line))) return no;
  }
  return 0;
}

}  // namespace falcon::problems
