#include "falcon/problems/instance_fields.h"

#include <cstdint>

namespace falcon::problems {

void expect_length(std::size_t actual, std::size_t expected, const std::string& name, const std::string& where) {
  if (actual != expected) {
    throw Error(where + ": instance field '" + name + "' has " + std::to_string(actual) + " values, expected " +
                std::to_string(expected));
  }
}

int int_field(const InstanceData& data, const std::string& name, const std::string& where) {
  const std::int64_t v = required_field(data.ints, name, where);
  if (v < INT32_MIN || v > INT32_MAX) throw Error(where + ": instance field '" + name + "' = " + std::to_string(v) + " is out of range");
  return static_cast<int>(v);
}

const FieldSpec kCoordsField{"coords", FieldKind::kRealArray, "x0, y0, x1, y1, ...: 2n coordinates in the unit square"};

std::vector<double> encode_coords(const RoutingGeometry& g, const std::string& what) {
  if (static_cast<int>(g.coords.size()) != g.n || RoutingGeometry::euclidean(g.coords).distance != g.distance) {
    throw Error(what + ": only instances with Euclidean distances of their coordinates can be stored (generated ones)");
  }
  std::vector<double> out;
  out.reserve(2 * g.coords.size());
  for (const Point& p : g.coords) {
    out.push_back(p.x);
    out.push_back(p.y);
  }
  return out;
}

RoutingGeometry decode_coords(const InstanceData& d, int n, const std::string& where) {
  const auto& flat = required_field(d.real_arrays, "coords", where);
  expect_length(flat.size(), 2 * static_cast<std::size_t>(n), "coords", where);
  std::vector<Point> points(n);
  for (int i = 0; i < n; ++i) points[i] = {flat[2 * i], flat[2 * i + 1]};
  return RoutingGeometry::euclidean(std::move(points));
}

}  // namespace falcon::problems
