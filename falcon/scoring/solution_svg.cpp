#include "falcon/scoring/solution_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "falcon/core/error.h"
#include "falcon/problems/picture.h"

namespace falcon::scoring {
namespace {

using problems::Point;

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
std::string render_routes(const problems::RouteMap& map, const std::string& title) {
  constexpr std::size_t kLegendRoutes = 10;  // the palette's size: further routes repeat its colours
  const auto& coords = map.coords;
  const Frame f = frame_of(coords);
  const auto& paths = map.paths;
  std::string out = open_svg(title);
  std::vector<LegendItem> legend;
  if (!map.depots.empty())
    legend.push_back({"<rect x=\"4\" y=\"-9\" width=\"10\" height=\"10\" fill=\"black\"/>", map.depot_label});
  for (std::size_t r = 0; r < paths.size(); ++r) {
    const char* stroke = colour(static_cast<int>(r));
    out += path_svg(f, coords, paths[r], stroke);
    if (r < kLegendRoutes)
      legend.push_back({line_swatch(std::string("stroke=\"") + stroke + "\" stroke-width=\"2\""),
                        paths.size() == 1 ? map.route_label : map.route_label + " " + std::to_string(r + 1)});
  }
  if (paths.size() > kLegendRoutes) legend.push_back({"", std::to_string(paths.size()) + " " + map.route_label + "s in all"});
  if (map.shows_repair) {
    for (const auto& [a, b] : map.added_by_repair) {
      const Point p = f.map(coords[a]), q = f.map(coords[b]);
      out += fmt("<line class=\"repair-added\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ", p.x, p.y, q.x, q.y) +
             repair_edge_style() + "/>\n";
    }
    legend.push_back({line_swatch(repair_edge_style()), counted("added by repair", map.added_by_repair.size())});
  }
  out += nodes_svg(f, coords, map.depots, map.radius);
  if (map.shows_repair) {
    out += dropped_nodes_svg(f, coords, map.dropped_by_repair);
    if (!map.dropped_by_repair.empty())
      legend.push_back({std::string("<circle cx=\"9\" cy=\"-4\" r=\"6\" fill=\"none\" stroke=\"") + kRepairRed +
                            "\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/>",
                        counted("dropped by repair", map.dropped_by_repair.size())});
  }
  return out + legend_svg(kMargin + kDrawable + 8, kHeader + kMargin + 10, legend, /*horizontal=*/false) + "</svg>\n";
}

// The page is as tall as the chart: a few machines do not leave a page of white below.
std::string render_gantt(const problems::GanttChart& chart, const std::string& title) {
  std::vector<std::vector<problems::GanttBar>> rows(chart.rows);  // rows[machine]: its bars
  for (const auto& bar : chart.bars) rows.at(bar.row).push_back(bar);
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
  std::vector<LegendItem> legend;
  if (chart.shows_repair)
    legend.push_back({std::string("<rect x=\"0\" y=\"-10\" width=\"18\" height=\"12\" fill=\"#bbb\" stroke=\"") + kRepairRed +
                          "\" stroke-width=\"2.5\"/>",
                      counted(chart.marked_label, chart.marked)});
  return out + legend_svg(kMargin, kHeader + kMargin - 12, legend, /*horizontal=*/true) + "</svg>\n";
}

// The set on a circular layout. The edges that break the problem's rule are red: for MIS an
// edge inside the set, for MVC an edge the set leaves uncovered.
std::string render_graph_set(const problems::GraphSet& graph, const std::string& title) {
  const int n = graph.n;
  std::vector<Point> pos(n);
  const double cx = kWidth / 2, cy = (kHeight + kHeader) / 2, r = std::min(kWidth, kHeight - kHeader) / 2 - kMargin;
  for (int v = 0; v < n; ++v) pos[v] = {cx + r * std::cos(2 * M_PI * v / n), cy + r * std::sin(2 * M_PI * v / n)};
  std::vector<char> chosen(n, 0);
  for (int v : graph.chosen) chosen[v] = 1;
  std::string out = open_svg(title);
  const double opacity = graph.edges.size() > 2000 ? 0.08 : 0.3;  // dense graphs stay readable
  int broken = 0;
  for (const auto& [u, v] : graph.edges) {
    const bool breaks = graph.independent ? chosen[u] && chosen[v] : !chosen[u] && !chosen[v];
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
                      counted(graph.independent ? "edge inside the set" : "edge not covered", broken)});
  if (graph.shows_repair) {
    const auto ring = [&](const std::vector<int>& vertices, const char* cls, const char* dash) {
      for (int v : vertices) {
        if (!valid(v, n)) continue;
        out += fmt("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" ", pos[v].x, pos[v].y) + "class=\"" + cls +
               "\" stroke=\"" + kRepairRed + "\" stroke-width=\"2\"" + dash + "/>\n";
      }
    };
    const auto& added = graph.added_by_repair;
    const auto& dropped = graph.dropped_by_repair;
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

}  // namespace

std::string render_solution_svg(const problems::Problem& problem, const problems::Instance& instance,
                                const problems::Solution& solution, const std::string& title,
                                const problems::Solution* before_repair) {
  const problems::Solution* raw = before_repair != nullptr && *before_repair != solution ? before_repair : nullptr;
  const problems::Picture picture = problem.picture(instance, solution, raw);
  if (const auto* map = std::get_if<problems::RouteMap>(&picture)) return render_routes(*map, title);
  if (const auto* chart = std::get_if<problems::GanttChart>(&picture)) return render_gantt(*chart, title);
  return render_graph_set(std::get<problems::GraphSet>(picture), title);
}

}  // namespace falcon::scoring
