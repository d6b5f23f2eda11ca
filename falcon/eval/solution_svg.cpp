#include "falcon/eval/solution_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "falcon/core/error.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/jssp_schedule.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/op.h"
#include "falcon/problems/pfsp.h"
#include "falcon/problems/tsp.h"

namespace falcon::eval {
namespace {

using problems::Point;
using problems::Solution;

constexpr double kWidth = 720, kHeight = 640, kMargin = 40, kHeader = 30;

// Tableau-like palette: neighbouring routes / jobs stay distinguishable.
const char* colour(int i) {
  static const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                   "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  return kPalette[((i % 10) + 10) % 10];
}

std::string fmt(const char* format, double a, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, a, b, c, d);
  return buf;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

std::string open_svg(const std::string& title) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(int(kWidth)) + "\" height=\"" +
         std::to_string(int(kHeight)) + "\" font-family=\"sans-serif\" font-size=\"12\">\n" +
         "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"" + std::to_string(int(kMargin)) +
         "\" y=\"20\" font-size=\"14\">" + escape(title) + "</text>\n";
}

// Maps instance coordinates into the drawing area, keeping the aspect ratio.
struct Frame {
  double lo_x, lo_y, scale;
  Point map(const Point& p) const {
    return {kMargin + (p.x - lo_x) * scale, kHeight - kMargin - (p.y - lo_y) * scale};
  }
};

Frame frame_of(const std::vector<Point>& coords) {
  if (coords.empty()) throw Error("cannot draw: the instance has no coordinates (EXPLICIT distances only)");
  double lo_x = coords[0].x, hi_x = lo_x, lo_y = coords[0].y, hi_y = lo_y;
  for (const auto& p : coords) {
    lo_x = std::min(lo_x, p.x), hi_x = std::max(hi_x, p.x);
    lo_y = std::min(lo_y, p.y), hi_y = std::max(hi_y, p.y);
  }
  const double extent = std::max({hi_x - lo_x, hi_y - lo_y, 1e-12});
  const double drawable = std::min(kWidth, kHeight - kHeader) - 2 * kMargin;
  return {lo_x, lo_y, drawable / extent};
}

bool valid(int v, int n) { return v >= 0 && v < n; }

// Polyline through `path` (invalid ids skipped), closed back to its first point when asked.
std::string path_svg(const Frame& f, const std::vector<Point>& coords, const std::vector<int>& path, const char* stroke) {
  std::string points;
  for (int v : path) {
    if (!valid(v, static_cast<int>(coords.size()))) continue;
    const Point p = f.map(coords[v]);
    points += fmt("%.1f,%.1f ", p.x, p.y);
  }
  return "<polyline fill=\"none\" stroke=\"" + std::string(stroke) + "\" stroke-width=\"2\" points=\"" + points + "\"/>\n";
}

std::string nodes_svg(const Frame& f, const std::vector<Point>& coords, const std::vector<int>& depots,
                      const std::vector<double>& radius) {
  std::string out;
  for (std::size_t i = 0; i < coords.size(); ++i) {
    const Point p = f.map(coords[i]);
    if (std::find(depots.begin(), depots.end(), static_cast<int>(i)) != depots.end()) {
      out += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"black\"/>\n", p.x - 5, p.y - 5);
    } else {
      out += fmt("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"#333\"/>\n", p.x, p.y, radius.empty() ? 3.0 : radius[i]);
    }
  }
  return out;
}

std::string render_tsp(const problems::tsp::TspInstance& inst, const Solution& s, const std::string& title) {
  const Frame f = frame_of(inst.geometry.coords);
  std::vector<int> closed = s.items();
  if (!closed.empty()) closed.push_back(closed.front());
  return open_svg(title) + path_svg(f, inst.geometry.coords, closed, colour(0)) + nodes_svg(f, inst.geometry.coords, {}, {}) + "</svg>\n";
}

std::string render_op(const problems::op::OpInstance& inst, const Solution& s, const std::string& title) {
  const Frame f = frame_of(inst.geometry.coords);
  std::vector<int> path = {inst.start};
  for (int v : s.items()) path.push_back(v);
  path.push_back(inst.end);
  // Node area grows with its prize, so the picture shows what the route collects.
  const double top = std::max(1e-12, *std::max_element(inst.prizes.begin(), inst.prizes.end()));
  std::vector<double> radius;
  for (double p : inst.prizes) radius.push_back(2 + 5 * std::sqrt(std::max(0.0, p) / top));
  return open_svg(title) + path_svg(f, inst.geometry.coords, path, colour(0)) +
         nodes_svg(f, inst.geometry.coords, {inst.start, inst.end}, radius) + "</svg>\n";
}

// Each route in its own colour, depot to depot.
std::string render_cvrp(const problems::cvrp::CvrpInstance& inst, const Solution& s, const std::string& title) {
  const Frame f = frame_of(inst.geometry.coords);
  std::string out = open_svg(title);
  for (std::size_t r = 0; r < s.lists.size(); ++r) {
    std::vector<int> path = {0};
    path.insert(path.end(), s.lists[r].begin(), s.lists[r].end());
    path.push_back(0);
    out += path_svg(f, inst.geometry.coords, path, colour(static_cast<int>(r)));
  }
  return out + nodes_svg(f, inst.geometry.coords, {0}, {}) + "</svg>\n";
}

// One row per machine; bars[machine] = (start, duration, job).
struct Bar {
  double start, duration;
  int job;
};

std::string render_gantt(const std::vector<std::vector<Bar>>& rows, const std::string& title) {
  double horizon = 1;
  for (const auto& row : rows) {
    for (const auto& b : row) horizon = std::max(horizon, b.start + b.duration);
  }
  const double row_h = std::min(40.0, (kHeight - kHeader - 2 * kMargin) / std::max<std::size_t>(1, rows.size()));
  const double scale = (kWidth - 2 * kMargin - 30) / horizon;
  std::string out = open_svg(title);
  for (std::size_t m = 0; m < rows.size(); ++m) {
    const double y = kHeader + kMargin + m * row_h;
    out += fmt("<text x=\"%.1f\" y=\"%.1f\">M%.0f</text>\n", 6, y + row_h * 0.6, m + 1);
    for (const auto& b : rows[m]) {
      const double x = kMargin + b.start * scale;
      out += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" stroke=\"white\" ", x, y, b.duration * scale, row_h - 4);
      out += std::string("fill=\"") + colour(b.job) + "\"/>\n";
      if (b.duration * scale > 14) out += fmt("<text x=\"%.1f\" y=\"%.1f\" fill=\"white\">%.0f</text>\n", x + 2, y + row_h * 0.6, b.job + 1);
    }
  }
  const double axis_y = kHeader + kMargin + rows.size() * row_h + 14;
  out += fmt("<text x=\"%.1f\" y=\"%.1f\">0</text><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", kMargin, axis_y, kMargin + horizon * scale, axis_y);
  out += fmt("%.0f</text>\n</svg>\n", horizon);
  return out;
}

std::string render_pfsp(const problems::pfsp::PfspInstance& inst, const Solution& s, const std::string& title) {
  std::vector<std::vector<Bar>> rows(inst.machines);
  std::vector<double> machine_free(inst.machines, 0);
  for (int job : s.items()) {
    if (!valid(job, inst.jobs)) continue;
    double ready = 0;
    for (int k = 0; k < inst.machines; ++k) {
      const double start = std::max(ready, machine_free[k]);
      rows[k].push_back({start, static_cast<double>(inst.p(job, k)), job});
      ready = machine_free[k] = start + inst.p(job, k);
    }
  }
  return render_gantt(rows, title);
}

std::string render_jssp(const problems::jssp::JsspInstance& inst, const Solution& s, const std::string& title) {
  // Only a feasible schedule has a timetable; draw what repair would make of anything else.
  const Solution drawn = problems::jssp::problem().feasible(inst, s) ? s : problems::jssp::problem().repair(inst, s);
  const auto decoded = problems::jssp::decode_schedule(inst, drawn.lists);
  std::vector<std::vector<Bar>> rows(inst.machines);
  for (int j = 0; j < inst.jobs; ++j) {
    for (std::size_t k = 0; k < inst.routes[j].size(); ++k) {
      const auto& op = inst.routes[j][k];
      rows[op.machine].push_back({static_cast<double>(decoded.start[j][k]), static_cast<double>(op.duration), j});
    }
  }
  return render_gantt(rows, title);
}

std::string render_graph_set(const problems::GraphInstance& inst, const Solution& s, const std::string& title) {
  const int n = inst.graph.n;
  std::vector<Point> pos(n);
  const double cx = kWidth / 2, cy = (kHeight + kHeader) / 2, r = std::min(kWidth, kHeight - kHeader) / 2 - kMargin;
  for (int v = 0; v < n; ++v) pos[v] = {cx + r * std::cos(2 * M_PI * v / n), cy + r * std::sin(2 * M_PI * v / n)};
  std::vector<char> chosen(n, 0);
  for (int v : s.items()) {
    if (valid(v, n)) chosen[v] = 1;
  }
  std::string out = open_svg(title);
  const double opacity = inst.graph.edges.size() > 2000 ? 0.08 : 0.3;  // dense graphs stay readable
  for (const auto& [u, v] : inst.graph.edges) {
    const bool both = chosen[u] && chosen[v];  // a conflict for MIS
    out += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ", pos[u].x, pos[u].y, pos[v].x, pos[v].y);
    out += both ? "stroke=\"#e15759\" stroke-width=\"2\"/>\n" : fmt("stroke=\"#888\" stroke-opacity=\"%.2f\"/>\n", opacity);
  }
  for (int v = 0; v < n; ++v) {
    out += fmt("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" ", pos[v].x, pos[v].y, chosen[v] ? 5.0 : 3.0);
    out += std::string("fill=\"") + (chosen[v] ? colour(0) : "#ccc") + "\"/>\n";
  }
  return out + "</svg>\n";
}

template <class T>
const T* as(const problems::Instance& i) {
  return dynamic_cast<const T*>(&i);
}

}  // namespace

std::string render_solution_svg(const problems::Problem& problem, const problems::Instance& instance,
                                const Solution& solution, const std::string& title) {
  if (auto* i = as<problems::tsp::TspInstance>(instance)) return render_tsp(*i, solution, title);
  if (auto* i = as<problems::op::OpInstance>(instance)) return render_op(*i, solution, title);
  if (auto* i = as<problems::cvrp::CvrpInstance>(instance)) return render_cvrp(*i, solution, title);
  if (auto* i = as<problems::pfsp::PfspInstance>(instance)) return render_pfsp(*i, solution, title);
  if (auto* i = as<problems::jssp::JsspInstance>(instance)) return render_jssp(*i, solution, title);
  if (auto* i = as<problems::GraphInstance>(instance)) return render_graph_set(*i, solution, title);
  throw Error("no picture for problem '" + std::string(problem.name()) + "'");
}

}  // namespace falcon::eval
