#include "falcon/problems/op_files.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/core/strings.h"
#include "falcon/problems/tsplib.h"

namespace falcon::problems::op {
namespace {

std::string stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

// A finite number filling the whole token, or nothing.
bool parse_number(const std::string& token, double& out) {
  if (token.empty()) return false;
  char* end = nullptr;
  out = std::strtod(token.c_str(), &end);
  return *end == '\0' && std::isfinite(out);
}

std::vector<std::string> tokens(const std::string& line) {
  std::istringstream ss(line);
  std::vector<std::string> out;
  for (std::string t; ss >> t;) out.push_back(t);
  return out;
}


std::string key_of(const std::string& line) { return trim(line.substr(0, line.find(':'))); }

long header_line(const std::string& path, const std::string& key) {
  return find_tsplib_line(path, [&](const std::string& t) { return key_of(t) == key; });
}

long first_section_line(const std::string& path) {
  return find_tsplib_line(path, [](const std::string& t) { return t.find("_SECTION") != std::string::npos; });
}

long section_line(const std::string& path, const std::string& section) {
  return find_tsplib_line(path, [&](const std::string& t) { return key_of(t) == section; });
}

}  // namespace

std::shared_ptr<OpInstance> read_oplib(const std::string& path) {
  TsplibFile file = read_tsplib(path);
  if (file.header.count("TYPE") && file.header.at("TYPE") != "OP") {
    throw input_error(path, header_line(path, "TYPE"), "TYPE is '" + file.header.at("TYPE") + "', expected OP");
  }
  if (!file.header.count("COST_LIMIT")) {
    throw input_error(path, first_section_line(path),
                      "the header ends without COST_LIMIT; OPLib files give the route-length limit as 'COST_LIMIT : <number>'");
  }
  auto instance = std::make_shared<OpInstance>();
  if (!parse_number(file.header.at("COST_LIMIT"), instance->budget) || instance->budget < 0) {
    throw input_error(path, header_line(path, "COST_LIMIT"),
                      "COST_LIMIT '" + file.header.at("COST_LIMIT") + "' is not a non-negative number");
  }
  const int n = file.dimension;
  if (static_cast<int>(file.scores.size()) != n) {
    throw input_error(path, first_section_line(path), "no NODE_SCORE_SECTION: an OP file needs one score per node");
  }
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(file.scores[i]) || file.scores[i] < 0) {
      throw input_error(path, section_line(path, "NODE_SCORE_SECTION"),
                        "NODE_SCORE_SECTION: node " + std::to_string(i + 1) + " has a negative or non-finite score");
    }
  }
  if (file.depots.size() > 1) {
    throw input_error(path, section_line(path, "DEPOT_SECTION"),
                      "DEPOT_SECTION lists " + std::to_string(file.depots.size()) + " depots; an OP tour has one");
  }
  const int depot = file.depots.empty() ? 0 : file.depots[0];  // TSPLIB default: node 1
  instance->geometry = std::move(file.geometry);
  instance->prizes = std::move(file.scores);
  instance->start = instance->end = depot;
  instance->name = stem(path);
  validate(*instance);
  return instance;
}

std::shared_ptr<OpInstance> read_tsiligirides(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open the file (does it exist and is it readable?)");
  auto instance = std::make_shared<OpInstance>();
  std::vector<Point> points;
  bool have_header = false;
  std::string line;
  long no = 0;
  while (std::getline(in, line)) {
    ++no;
    const auto t = tokens(line);
    if (t.empty()) continue;
    if (!have_header) {
      double paths = 0;
      if (t.size() != 2) throw input_error(path, no, "expected the header 'Tmax P', got " + std::to_string(t.size()) + " fields");
      if (!parse_number(t[0], instance->budget) || instance->budget < 0) {
        throw input_error(path, no, "Tmax '" + t[0] + "' is not a non-negative number");
      }
      if (!parse_number(t[1], paths)) throw input_error(path, no, "P '" + t[1] + "' is not a number");
      if (paths != 1) throw input_error(path, no, "P = " + t[1] + " paths: this is a team OP instance; only P = 1 is supported");
      have_header = true;
      continue;
    }
    if (t.size() != 3) {
      throw input_error(path, no, "expected 'x y score', got " + std::to_string(t.size()) + " fields (truncated line?)");
    }
    double v[3];
    for (int k = 0; k < 3; ++k) {
      if (!parse_number(t[k], v[k])) throw input_error(path, no, "'" + t[k] + "' is not a number");
    }
    if (v[2] < 0) throw input_error(path, no, "score " + t[2] + " is negative");
    points.push_back({v[0], v[1]});
    instance->prizes.push_back(v[2]);
  }
  if (!have_header) throw input_error(path, no, "empty file: expected the header 'Tmax P'");
  if (points.size() < 2) {
    throw input_error(path, no, "needs at least 2 points (start and end), found " + std::to_string(points.size()));
  }
  instance->geometry = RoutingGeometry::euclidean(std::move(points));
  instance->start = 0;  // point 1
  instance->end = 1;    // point 2
  instance->name = stem(path);
  if (!within_budget(*instance, instance->geometry.d(0, 1))) {
    throw input_error(path, 1, "Tmax is below the distance from the start (point 1) to the end (point 2): no route is feasible");
  }
  validate(*instance);
  return instance;
}

Solution OplibSolution::solution() const {
  std::vector<int> route = sequence;
  if (!route.empty() && route.front() == depot) route.erase(route.begin());
  if (!route.empty() && route.back() == depot) route.pop_back();  // closed-tour writers repeat it
  return Solution::flat(std::move(route));
}

OplibSolution read_oplib_solution(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open the file (does it exist and is it readable?)");
  OplibSolution sol;
  sol.name = stem(path);
  std::map<std::string, std::pair<std::string, long>> header;  // key -> (value, line)
  long sequence_line = 0;  // 0 = no NODE_SEQUENCE_SECTION yet
  std::string line;
  long no = 0;
  // "-1"-terminated list of 1-based node ids.
  auto read_ids = [&](const std::string& section, std::vector<int>& out) {
    while (std::getline(in, line)) {
      ++no;
      for (const std::string& tok : tokens(line)) {
        double v = 0;
        if (!parse_number(tok, v) || v != std::floor(v)) {
          throw input_error(path, no, section + ": '" + tok + "' is not a node id");
        }
        if (v == -1) return;
        if (v < 1 || v > 1e9) throw input_error(path, no, section + ": node id " + tok + " is not positive");
        out.push_back(static_cast<int>(v) - 1);
      }
    }
    throw input_error(path, no, section + " is not terminated by -1 (truncated file?)");
  };
  while (std::getline(in, line)) {
    ++no;
    const std::string t = trim(line);
    if (t.empty()) continue;
    if (t == "EOF") break;
    const std::string key = key_of(t);
    if (key == "NODE_SEQUENCE_SECTION") {
      sequence_line = no;
      read_ids(key, sol.sequence);
    } else if (key == "DEPOT_SECTION") {
      std::vector<int> depots;
      read_ids(key, depots);
      if (depots.size() != 1) throw input_error(path, no, "DEPOT_SECTION must list exactly one depot");
      sol.depot = depots[0];
    } else if (t.find(':') != std::string::npos) {
      header[key] = {trim(t.substr(t.find(':') + 1)), no};
    } else {
      throw input_error(path, no, "expected 'KEY : VALUE', NODE_SEQUENCE_SECTION or DEPOT_SECTION, got '" + t + "'");
    }
  }
  auto number = [&](const std::string& key, bool required, double& out) {
    auto it = header.find(key);
    if (it == header.end()) {
      if (required) throw input_error(path, no, "no '" + key + "' line in the header");
      return;
    }
    const auto& [text, line_no] = it->second;
    if (!parse_number(text, out)) throw input_error(path, line_no, key + " '" + text + "' is not a number");
  };
  number("ROUTE_SCORE", true, sol.route_score);
  number("ROUTE_COST", false, sol.route_cost);
  number("COST_LIMIT", false, sol.cost_limit);
  double nodes = 0;
  number("ROUTE_NODES", false, nodes);
  sol.route_nodes = static_cast<int>(nodes);
  if (sequence_line == 0) throw input_error(path, no, "no NODE_SEQUENCE_SECTION");
  if (sol.sequence.empty() || sol.sequence.front() != sol.depot) {
    throw input_error(path, sequence_line,
                      "NODE_SEQUENCE_SECTION must start at the depot (node " + std::to_string(sol.depot + 1) + ")");
  }
  return sol;
}

}  // namespace falcon::problems::op
