#include "falcon/problems/cvrp_files.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/problems/tsplib.h"

namespace falcon::problems::cvrp {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string first_token(const std::string& line) {
  std::istringstream ss(line);
  std::string tok;
  ss >> tok;
  return tok;
}


long header_line(const std::string& path, const std::string& key) {
  return find_tsplib_line(path, [&](const std::string& t) {
    const auto colon = t.find(':');
    return colon != std::string::npos && trim(t.substr(0, colon)) == key;
  });
}

// The row of `section` that starts with the 1-based file node id `node`.
long section_row_line(const std::string& path, const std::string& section, int node) {
  bool inside = false;
  return find_tsplib_line(path, [&](const std::string& t) {
    const std::string key = first_token(t);
    if (key.size() > 8 && key.compare(key.size() - 8, 8, "_SECTION") == 0) {
      inside = key == section;
      return false;
    }
    return inside && std::strtod(key.c_str(), nullptr) == node && !key.empty();
  });
}

bool parse_int(const std::string& text, long& out) {
  char* end = nullptr;
  out = std::strtol(text.c_str(), &end, 10);
  return !text.empty() && *end == '\0';
}

}  // namespace

int vehicles_from_name(const std::string& name) {
  const std::string stem = name.substr(0, name.find('.'));
  const auto at = stem.rfind("-k");
  if (at == std::string::npos || at + 2 >= stem.size()) return 0;
  long k = 0;
  if (!parse_int(stem.substr(at + 2), k) || k <= 0 || k > 1000000) return 0;
  return static_cast<int>(k);
}

std::shared_ptr<CvrpInstance> read_file(const std::string& path) {
  TsplibFile file = read_tsplib(path);
  // OVRP is accepted and read as CVRP (closed routes) because LKH-3's copy of CVRPLIB's
  // E-n101-k14 carries that label although the instance, its .sol and its optimum 1067 are
  // the closed-route CVRP.
  if (file.header.count("TYPE") && file.header.at("TYPE") != "CVRP" && file.header.at("TYPE") != "OVRP") {
    throw input_error(path, header_line(path, "TYPE"), "TYPE is '" + file.header.at("TYPE") + "', expected CVRP");
  }
  const int n = file.dimension;
  if (n < 2) throw input_error(path, header_line(path, "DIMENSION"), "DIMENSION must be at least 2 (a depot and a customer)");
  if (!file.header.count("CAPACITY")) {
    throw input_error(path, 0, "the header has no 'CAPACITY : Q' line; a CVRP file needs the vehicle capacity");
  }
  long capacity = 0;
  if (!parse_int(file.header.at("CAPACITY"), capacity) || capacity <= 0 || capacity > 1000000000L) {
    throw input_error(path, header_line(path, "CAPACITY"), "CAPACITY '" + file.header.at("CAPACITY") + "' is not a positive integer");
  }
  if (file.demands.empty()) throw input_error(path, 0, "no DEMAND_SECTION; a CVRP file needs a demand per node");
  if (file.depots.size() > 1) {
    throw input_error(path, find_tsplib_line(path, [](const std::string& t) { return first_token(t) == "DEPOT_SECTION"; }),
                      std::to_string(file.depots.size()) + " depots in DEPOT_SECTION; only single-depot CVRP is supported");
  }
  // TSPLIB makes DEPOT_SECTION optional; CVRPLIB files always name node 1.
  const int depot = file.depots.empty() ? 0 : file.depots[0];

  std::vector<int> demands(n);
  for (int i = 0; i < n; ++i) {
    const double q = file.demands[i];
    const auto fail = [&](const std::string& what) {
      throw input_error(path, section_row_line(path, "DEMAND_SECTION", i + 1), "node " + std::to_string(i + 1) + ": " + what);
    };
    if (q != std::floor(q) || q < 0 || q > 1e9) fail("demand " + std::to_string(q) + " is not a non-negative integer");
    if (i == depot && q != 0) fail("the depot's demand must be 0");
    if (q > capacity) {
      fail("demand " + std::to_string(static_cast<long>(q)) + " exceeds the capacity " + std::to_string(capacity) +
           ": no vehicle can serve this customer, so the file is not a valid CVRP instance");
    }
    demands[i] = static_cast<int>(q);
  }

  // Node order: the depot, then the other nodes in file order.
  std::vector<int> order = {depot};
  for (int i = 0; i < n; ++i) {
    if (i != depot) order.push_back(i);
  }
  auto instance = std::make_shared<CvrpInstance>();
  std::vector<double> matrix(static_cast<std::size_t>(n) * n);
  std::vector<Point> coords;
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) matrix[static_cast<std::size_t>(a) * n + b] = file.geometry.d(order[a], order[b]);
    if (!file.geometry.coords.empty()) coords.push_back(file.geometry.coords[order[a]]);
    instance->demands.push_back(demands[order[a]]);
  }
  instance->geometry = RoutingGeometry::from_matrix(std::move(matrix), n, std::move(coords));
  instance->capacity = static_cast<int>(capacity);
  instance->name = std::filesystem::path(path).stem().string();
  instance->vehicles = vehicles_from_name(instance->name);
  if (instance->vehicles == 0 && file.header.count("NAME")) instance->vehicles = vehicles_from_name(file.header.at("NAME"));
  validate(*instance);
  return instance;
}

SolutionFile read_solution(const std::string& path, const CvrpInstance& instance) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open the file (does it exist and is it readable?)");
  SolutionFile out;
  std::string line;
  for (long no = 1; std::getline(in, line); ++no) {
    const std::string t = trim(line);
    if (t.empty()) continue;
    const auto fail = [&](const std::string& what) { throw input_error(path, no, what); };
    if (t.rfind("Route", 0) == 0) {
      const auto colon = t.find(':');
      std::string label = trim(t.substr(5, colon == std::string::npos ? std::string::npos : colon - 5));
      long number = 0;
      if (colon == std::string::npos || label.empty() || label[0] != '#' || !parse_int(label.substr(1), number)) {
        fail("expected 'Route #<k>: <customer> ...', got '" + t + "'");
      }
      std::istringstream ss(t.substr(colon + 1));
      std::vector<int> route;
      std::string tok;
      while (ss >> tok) {
        long v = 0;
        if (!parse_int(tok, v)) fail("customer '" + tok + "' is not an integer");
        if (v < 1 || v >= instance.size()) {
          fail("customer " + tok + " is not in 1.." + std::to_string(instance.size() - 1) +
               " (CVRPLIB .sol numbers customers from 1, the depot is 0 and not written; is this the solution of '" +
               instance.name + "'?)");
        }
        route.push_back(static_cast<int>(v));
      }
      out.routes.lists.push_back(std::move(route));
    } else if (t.rfind("Cost", 0) == 0) {
      if (out.cost) fail("a second 'Cost' line");
      const std::string value = trim(t.substr(4));
      char* end = nullptr;
      const double cost = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0') fail("expected 'Cost <number>', got '" + t + "'");
      out.cost = cost;
    } else {
      fail("expected 'Route #<k>: ...' or 'Cost <number>', got '" + t + "'");
    }
  }
  if (out.routes.lists.empty()) throw input_error(path, 0, "no 'Route #<k>:' lines; is this a CVRPLIB .sol file?");
  return out;
}

}  // namespace falcon::problems::cvrp
