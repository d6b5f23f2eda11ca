#include "falcon/eval/solution_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "falcon/core/error.h"
#include "falcon/eval/repair_changes.h"
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

constexpr double kWidth = 760, kHeight = 640, kMargin = 40, kHeader = 30;
// Side of the square a route map fills; the legend goes to its right.
constexpr double kDrawable = std::min(kWidth, kHeight - kHeader) - 2 * kMargin;

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

// What repair changed is drawn in one red that no route or job colour uses, dashed where it
// lies on a route line so that the route's own colour still shows through the gaps.
constexpr const char* kRepairRed = "#c00000";

// A swatch (SVG in local coordinates: x in [0, 18], the label's baseline at y = 0) and its label.
struct LegendItem {
  std::string swatch;
  std::string label;
};

std::string line_swatch(const std::string& style) {
  return "<line x1=\"0\" y1=\"-4\" x2=\"18\" y2=\"-4\" " + style + "/>";
}
std::string repair_edge_style() {
  return std::string("stroke=\"") + kRepairRed + "\" stroke-width=\"4\" stroke-dasharray=\"8 5\"";
}
std::string counted(const std::string& label, std::size_t count) { return label + " (" + std::to_string(count) + ")"; }

// Vertical (routes, graphs: beside the drawing) or horizontal (Gantt: above the chart).
std::string legend_svg(double x, double y, const std::vector<LegendItem>& items, bool horizontal) {
  std::string out = "<g font-size=\"11\">\n";
  for (const auto& item : items) {
    out += fmt("<g transform=\"translate(%.1f,%.1f)\">", x, y) + item.swatch + "<text x=\"24\" y=\"0\">" +
           escape(item.label) + "</text></g>\n";
    if (horizontal) {
      x += 24 + 6.5 * item.label.size() + 14;  // ~6.5 px per character at 11 px
    } else {
      y += 18;
    }
  }
  return out + "</g>\n";
}

std::string open_svg(const std::string& title, double height = kHeight) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(int(kWidth)) + "\" height=\"" +
         std::to_string(int(height)) + "\" font-family=\"sans-serif\" font-size=\"12\">\n" +
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
  return {lo_x, lo_y, kDrawable / extent};
}

bool valid(int v, int n) { return v >= 0 && v < n; }

// Polyline through `path` (invalid ids skipped).
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

// The nodes repair dropped (in the raw solution, in no route of the repaired one): dashed rings.
std::string dropped_nodes_svg(const Frame& f, const std::vector<Point>& coords, const std::vector<int>& dropped) {
  std::string out;
  for (int v : dropped) {
    if (!valid(v, static_cast<int>(coords.size()))) continue;
    const Point p = f.map(coords[v]);
    out += fmt("<circle class=\"repair-dropped\" cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" ", p.x, p.y);
    out += std::string("stroke=\"") + kRepairRed + "\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/>\n";
  }
  return out;
}

// Routes in their colours (one per route), the edges repair added over them, the nodes (depots
// as squares) and a legend beside the map.
struct RouteStyle {
  std::vector<int> depots;
  std::string depot_label;
  std::vector<double> radius;  // by node; empty = all alike
  std::string route_label;     // "tour", "route"; numbered when there are several
};

std::string render_routes(const problems::Instance& inst, const std::vector<Point>& coords, const Solution& s,
                          const Solution* before, const RouteStyle& style, const std::string& title) {
  constexpr std::size_t kLegendRoutes = 10;  // the palette's size: further routes repeat its colours
  const Frame f = frame_of(coords);
  const auto paths = route_paths(inst, s);
  std::string out = open_svg(title);
  std::vector<LegendItem> legend;
  if (!style.depots.empty())
    legend.push_back({"<rect x=\"4\" y=\"-9\" width=\"10\" height=\"10\" fill=\"black\"/>", style.depot_label});
  for (std::size_t r = 0; r < paths.size(); ++r) {
    const char* stroke = colour(static_cast<int>(r));
    out += path_svg(f, coords, paths[r], stroke);
    if (r < kLegendRoutes)
      legend.push_back({line_swatch(std::string("stroke=\"") + stroke + "\" stroke-width=\"2\""),
                        paths.size() == 1 ? style.route_label : style.route_label + " " + std::to_string(r + 1)});
  }
  if (paths.size() > kLegendRoutes) legend.push_back({"", std::to_string(paths.size()) + " " + style.route_label + "s in all"});
  if (before != nullptr) {
    const auto added = edges_added_by_repair(inst, *before, s);
    for (const auto& [a, b] : added) {
      const Point p = f.map(coords[a]), q = f.map(coords[b]);
      out += fmt("<line class=\"repair-added\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ", p.x, p.y, q.x, q.y) +
             repair_edge_style() + "/>\n";
    }
    legend.push_back({line_swatch(repair_edge_style()), counted("added by repair", added.size())});
  }
  out += nodes_svg(f, coords, style.depots, style.radius);
  if (before != nullptr) {
    const auto dropped = items_missing_from(*before, s);
    out += dropped_nodes_svg(f, coords, dropped);
    if (!dropped.empty())
      legend.push_back({std::string("<circle cx=\"9\" cy=\"-4\" r=\"6\" fill=\"none\" stroke=\"") + kRepairRed +
                            "\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/>",
                        counted("dropped by repair", dropped.size())});
  }
  return out + legend_svg(kMargin + kDrawable + 8, kHeader + kMargin + 10, legend, /*horizontal=*/false) + "</svg>\n";
}

std::string render_tsp(const problems::tsp::TspInstance& inst, const Solution& s, const Solution* before,
                       const std::string& title) {
  return render_routes(inst, inst.geometry.coords, s, before, {{}, "", {}, "tour"}, title);
}

std::string render_op(const problems::op::OpInstance& inst, const Solution& s, const Solution* before,
                      const std::string& title) {
  // Node area grows with its prize, so the picture shows what the route collects.
  const double top = std::max(1e-12, *std::max_element(inst.prizes.begin(), inst.prizes.end()));
  std::vector<double> radius;
  for (double p : inst.prizes) radius.push_back(2 + 5 * std::sqrt(std::max(0.0, p) / top));
  const std::string depot_label = inst.start == inst.end ? "depot" : "start, end";
  return render_routes(inst, inst.geometry.coords, s, before, {{inst.start, inst.end}, depot_label, radius, "route"}, title);
}

// Each route in its own colour, depot to depot.
std::string render_cvrp(const problems::cvrp::CvrpInstance& inst, const Solution& s, const Solution* before,
                        const std::string& title) {
  return render_routes(inst, inst.geometry.coords, s, before, {{0}, "depot", {}, "route"}, title);
}

// One row per machine; rows[machine] = its bars.
struct Bar {
  double start, duration;
  int job;
  bool marked = false;  // outlined in the repair colour (placed by repair)
};

// The page is as tall as the chart: a few machines do not leave a page of white below.
std::string render_gantt(const std::vector<std::vector<Bar>>& rows, const std::vector<LegendItem>& legend,
                         const std::string& title) {
  double horizon = 1;
  for (const auto& row : rows) {
    for (const auto& b : row) horizon = std::max(horizon, b.start + b.duration);
  }
  const double row_h = std::min(40.0, (kHeight - kHeader - 2 * kMargin) / std::max<std::size_t>(1, rows.size()));
  const double scale = (kWidth - 2 * kMargin - 30) / horizon;
  const double axis_y = kHeader + kMargin + rows.size() * row_h + 14;
  std::string out = open_svg(title, axis_y + kMargin / 2);
  for (std::size_t m = 0; m < rows.size(); ++m) {
    const double y = kHeader + kMargin + m * row_h;
    out += fmt("<text x=\"%.1f\" y=\"%.1f\">M%.0f</text>\n", 6, y + row_h * 0.6, m + 1);
    for (const auto& b : rows[m]) {
      const double x = kMargin + b.start * scale;
      out += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" ", x, y, b.duration * scale, row_h - 4);
      out += std::string("fill=\"") + colour(b.job) + "\" " +
             (b.marked ? std::string("class=\"repair-added\" stroke=\"") + kRepairRed + "\" stroke-width=\"2.5\"/>\n"
                       : std::string("stroke=\"white\"/>\n"));
      if (b.duration * scale > 14) out += fmt("<text x=\"%.1f\" y=\"%.1f\" fill=\"white\">%.0f</text>\n", x + 2, y + row_h * 0.6, b.job + 1);
    }
  }
  out += fmt("<text x=\"%.1f\" y=\"%.1f\">0</text><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", kMargin, axis_y, kMargin + horizon * scale, axis_y);
  out += fmt("%.0f</text>\n", horizon);
  // Between the title and the first machine.
  return out + legend_svg(kMargin, kHeader + kMargin - 12, legend, /*horizontal=*/true) + "</svg>\n";
}

LegendItem repair_bar_legend(const std::string& label, std::size_t count) {
  return {std::string("<rect x=\"0\" y=\"-10\" width=\"18\" height=\"12\" fill=\"#bbb\" stroke=\"") + kRepairRed +
              "\" stroke-width=\"2.5\"/>",
          counted(label, count)};
}

std::string render_pfsp(const problems::pfsp::PfspInstance& inst, const Solution& s, const Solution* before,
                        const std::string& title) {
  std::vector<int> inserted;
  if (before != nullptr) inserted = items_missing_from(s, *before);
  std::vector<std::vector<Bar>> rows(inst.machines);
  std::vector<double> machine_free(inst.machines, 0);
  for (int job : s.items()) {
    if (!valid(job, inst.jobs)) continue;
    const bool marked = std::binary_search(inserted.begin(), inserted.end(), job);
    double ready = 0;
    for (int k = 0; k < inst.machines; ++k) {
      const double start = std::max(ready, machine_free[k]);
      rows[k].push_back({start, static_cast<double>(inst.p(job, k)), job, marked});
      ready = machine_free[k] = start + inst.p(job, k);
    }
  }
  std::vector<LegendItem> legend;
  if (before != nullptr) legend.push_back(repair_bar_legend("job inserted by repair", inserted.size()));
  return render_gantt(rows, legend, title);
}

// A raw sequence with no timetable (not one permutation per machine, or a cycle) is drawn as
// repair makes it, and then, as for a given `before`, the operations repair inserted or moved
// are outlined: those outside a longest common subsequence of each machine's two orders.
std::string render_jssp(const problems::jssp::JsspInstance& inst, const Solution& s, const Solution* before,
                        const std::string& title) {
  const bool feasible = problems::jssp::problem().feasible(inst, s);
  const Solution drawn = feasible ? s : problems::jssp::problem().repair(inst, s);
  const Solution* raw = before != nullptr ? before : (feasible ? nullptr : &s);
  const auto decoded = problems::jssp::decode_schedule(inst, drawn.lists);
  std::vector<std::pair<int, int>> placed;  // (machine, job)
  if (raw != nullptr) placed = items_placed_by_repair(*raw, Solution{decoded.sequences});
  std::vector<std::vector<Bar>> rows(inst.machines);
  for (int j = 0; j < inst.jobs; ++j) {
    for (std::size_t k = 0; k < inst.routes[j].size(); ++k) {
      const auto& op = inst.routes[j][k];
      const bool marked = std::binary_search(placed.begin(), placed.end(), std::make_pair(op.machine, j));
      rows[op.machine].push_back({static_cast<double>(decoded.start[j][k]), static_cast<double>(op.duration), j, marked});
    }
  }
  std::vector<LegendItem> legend;
  if (raw != nullptr) legend.push_back(repair_bar_legend("operation inserted or moved by repair", placed.size()));
  return render_gantt(rows, legend, title);
}

// The set on a circular layout. The edges that break the problem's rule are red: for MIS an
// edge inside the set, for MVC an edge the set leaves uncovered.
std::string render_graph_set(const problems::GraphInstance& inst, bool independent_set, const Solution& s,
                             const Solution* before, const std::string& title) {
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
  int broken = 0;
  for (const auto& [u, v] : inst.graph.edges) {
    const bool breaks = independent_set ? chosen[u] && chosen[v] : !chosen[u] && !chosen[v];
    broken += breaks;
    out += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ", pos[u].x, pos[u].y, pos[v].x, pos[v].y);
    out += breaks ? "stroke=\"#e15759\" stroke-width=\"2\"/>\n" : fmt("stroke=\"#888\" stroke-opacity=\"%.2f\"/>\n", opacity);
  }
  for (int v = 0; v < n; ++v) {
    out += fmt("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" ", pos[v].x, pos[v].y, chosen[v] ? 5.0 : 3.0);
    out += std::string("fill=\"") + (chosen[v] ? colour(0) : "#ccc") + "\"/>\n";
  }
  int set_size = 0;
  for (char c : chosen) set_size += c;
  std::vector<LegendItem> legend = {
      {std::string("<circle cx=\"9\" cy=\"-4\" r=\"5\" fill=\"") + colour(0) + "\"/>", counted("in the set", set_size)}};
  if (broken > 0)
    legend.push_back({line_swatch("stroke=\"#e15759\" stroke-width=\"2\""),
                      counted(independent_set ? "edge inside the set" : "edge not covered", broken)});
  if (before != nullptr) {
    const auto ring = [&](const std::vector<int>& vertices, const char* cls, const char* dash) {
      for (int v : vertices) {
        if (!valid(v, n)) continue;
        out += fmt("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" ", pos[v].x, pos[v].y) + "class=\"" + cls +
               "\" stroke=\"" + kRepairRed + "\" stroke-width=\"2\"" + dash + "/>\n";
      }
    };
    const auto added = items_missing_from(s, *before), dropped = items_missing_from(*before, s);
    ring(added, "repair-added", "");
    ring(dropped, "repair-dropped", " stroke-dasharray=\"3 2\"");
    if (!added.empty())
      legend.push_back({std::string("<circle cx=\"9\" cy=\"-4\" r=\"6\" fill=\"none\" stroke=\"") + kRepairRed +
                            "\" stroke-width=\"2\"/>",
                        counted("added by repair", added.size())});
    if (!dropped.empty())
      legend.push_back({std::string("<circle cx=\"9\" cy=\"-4\" r=\"6\" fill=\"none\" stroke=\"") + kRepairRed +
                            "\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/>",
                        counted("dropped by repair", dropped.size())});
  }
  // Top left: the circle leaves the page's corners free.
  return out + legend_svg(10, kHeader + 20, legend, /*horizontal=*/false) + "</svg>\n";
}

template <class T>
const T* as(const problems::Instance& i) {
  return dynamic_cast<const T*>(&i);
}

}  // namespace

std::string render_solution_svg(const problems::Problem& problem, const problems::Instance& instance,
                                const Solution& solution, const std::string& title, const Solution* before_repair) {
  const Solution* before = before_repair != nullptr && *before_repair != solution ? before_repair : nullptr;
  if (auto* i = as<problems::tsp::TspInstance>(instance)) return render_tsp(*i, solution, before, title);
  if (auto* i = as<problems::op::OpInstance>(instance)) return render_op(*i, solution, before, title);
  if (auto* i = as<problems::cvrp::CvrpInstance>(instance)) return render_cvrp(*i, solution, before, title);
  if (auto* i = as<problems::pfsp::PfspInstance>(instance)) return render_pfsp(*i, solution, before, title);
  if (auto* i = as<problems::jssp::JsspInstance>(instance)) return render_jssp(*i, solution, before, title);
  if (auto* i = as<problems::GraphInstance>(instance))
    return render_graph_set(*i, problem.name() == "mis", solution, before, title);
  throw Error("no picture for problem '" + std::string(problem.name()) + "'");
}

}  // namespace falcon::eval
