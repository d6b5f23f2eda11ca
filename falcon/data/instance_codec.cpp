#include "falcon/data/instance_codec.h"

#include "falcon/core/error.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/jssp.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/op.h"
#include "falcon/problems/pfsp.h"
#include "falcon/problems/tsp.h"

namespace falcon::data {
namespace {

using problems::Point;
using problems::RoutingGeometry;

const FieldSpec kCoords{"coords", FieldKind::kRealArray, "x0, y0, x1, y1, ...: 2n coordinates in the unit square"};

std::vector<double> encode_coords(const RoutingGeometry& g, const std::string& what) {
  // Only a Euclidean matrix of the coordinates can be rebuilt from them.
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

template <class T>
const T& field(const std::map<std::string, T>& fields, const std::string& name, const std::string& where) {
  auto it = fields.find(name);
  if (it == fields.end()) throw Error(where + ": the instance field '" + name + "' is missing");
  return it->second;
}

void expect_length(std::size_t actual, std::size_t expected, const std::string& name, const std::string& where) {
  if (actual != expected) {
    throw Error(where + ": instance field '" + name + "' has " + std::to_string(actual) + " values, expected " +
                std::to_string(expected));
  }
}

RoutingGeometry decode_coords(const InstanceData& d, int n, const std::string& where) {
  const auto& flat = field(d.real_arrays, "coords", where);
  expect_length(flat.size(), 2 * static_cast<std::size_t>(n), "coords", where);
  std::vector<Point> points(n);
  for (int i = 0; i < n; ++i) points[i] = {flat[2 * i], flat[2 * i + 1]};
  return RoutingGeometry::euclidean(std::move(points));
}

int to_int(std::int64_t v, const std::string& name, const std::string& where) {
  if (v < INT32_MIN || v > INT32_MAX) throw Error(where + ": instance field '" + name + "' = " + std::to_string(v) + " is out of range");
  return static_cast<int>(v);
}

// Rethrows validation errors of the problem code with the record's place in front.
template <class F>
void validated(const std::string& where, F&& validate) {
  try {
    validate();
  } catch (const Error& e) {
    throw Error(where + ": " + e.what());
  }
}

}  // namespace

const std::vector<FieldSpec>& instance_fields(const std::string& problem) {
  static const std::map<std::string, std::vector<FieldSpec>> fields = {
      {"tsp", {kCoords}},
      {"op",
       {kCoords,
        {"prizes", FieldKind::kRealArray, "n prizes, by node (the depot's is 0)"},
        {"budget", FieldKind::kReal, "maximum route length"},
        {"start", FieldKind::kInt, "start node"},
        {"end", FieldKind::kInt, "end node"}}},
      {"cvrp",
       {kCoords,
        {"demands", FieldKind::kIntArray, "n demands, by node (node 0, the depot, has 0)"},
        {"capacity", FieldKind::kInt, "vehicle capacity"},
        {"vehicles", FieldKind::kInt, "fleet size k of a CVRPLIB name, 0 when unknown (generated)"}}},
      {"mis", {{"edges", FieldKind::kIntArray, "u0, v0, u1, v1, ...: the m edges, u < v, sorted"}}},
      {"mvc", {{"edges", FieldKind::kIntArray, "u0, v0, u1, v1, ...: the m edges, u < v, sorted"}}},
      {"pfsp",
       {{"machines", FieldKind::kInt, "number of machines m"},
        {"times", FieldKind::kIntArray, "n*m processing times, job-major: times[j*m + k]"},
        {"taillard_seed", FieldKind::kInt, "Taillard time seed (distribution taillard), else 0"},
        {"upper_bound", FieldKind::kInt, "from a Taillard file, else 0"},
        {"lower_bound", FieldKind::kInt, "from a Taillard file, else 0"}}},
      {"jssp",
       {{"machines", FieldKind::kInt, "number of machines m"},
        {"route_machines", FieldKind::kIntArray, "n*m: job j's k-th operation runs on machine [j*m + k] (0-based)"},
        {"route_durations", FieldKind::kIntArray, "n*m: its duration"}}},
  };
  auto it = fields.find(problem);
  if (it == fields.end()) throw Error("no dataset fields for problem '" + problem + "'");
  return it->second;
}

InstanceData encode_instance(const problems::Problem& problem, const problems::Instance& instance) {
  const std::string p(problem.name());
  const std::string what = p + " instance '" + instance.name + "'";
  InstanceData d;
  if (p == "tsp") {
    const auto& t = problems::instance_as<problems::tsp::TspInstance>(instance, p);
    d.real_arrays["coords"] = encode_coords(t.geometry, what);
  } else if (p == "op") {
    const auto& o = problems::instance_as<problems::op::OpInstance>(instance, p);
    d.real_arrays["coords"] = encode_coords(o.geometry, what);
    d.real_arrays["prizes"] = o.prizes;
    d.reals["budget"] = o.budget;
    d.ints["start"] = o.start;
    d.ints["end"] = o.end;
  } else if (p == "cvrp") {
    const auto& c = problems::instance_as<problems::cvrp::CvrpInstance>(instance, p);
    d.real_arrays["coords"] = encode_coords(c.geometry, what);
    d.int_arrays["demands"].assign(c.demands.begin(), c.demands.end());
    d.ints["capacity"] = c.capacity;
    d.ints["vehicles"] = c.vehicles;
  } else if (p == "mis" || p == "mvc") {
    const auto& g = problems::instance_as<problems::GraphInstance>(instance, p).graph;
    auto& edges = d.int_arrays["edges"];
    edges.reserve(2 * g.edges.size());
    for (const auto& [u, v] : g.edges) {
      edges.push_back(u);
      edges.push_back(v);
    }
  } else if (p == "pfsp") {
    const auto& f = problems::instance_as<problems::pfsp::PfspInstance>(instance, p);
    d.ints["machines"] = f.machines;
    d.int_arrays["times"].assign(f.times.begin(), f.times.end());
    d.ints["taillard_seed"] = f.header.seed;
    d.ints["upper_bound"] = f.header.upper_bound;
    d.ints["lower_bound"] = f.header.lower_bound;
  } else if (p == "jssp") {
    const auto& j = problems::instance_as<problems::jssp::JsspInstance>(instance, p);
    d.ints["machines"] = j.machines;
    auto& machines = d.int_arrays["route_machines"];
    auto& durations = d.int_arrays["route_durations"];
    for (const auto& route : j.routes) {
      if (static_cast<int>(route.size()) != j.machines) throw Error(what + ": a job route does not visit every machine once");
      for (const auto& op : route) {
        machines.push_back(op.machine);
        durations.push_back(op.duration);
      }
    }
  } else {
    throw Error("no dataset encoding for problem '" + p + "'");
  }
  return d;
}

std::shared_ptr<problems::Instance> decode_instance(const problems::Problem& problem, const InstanceData& d, int n,
                                                    const std::string& name, const std::string& where) {
  const std::string p(problem.name());
  if (n < 1) throw Error(where + ": size n = " + std::to_string(n) + " is not positive");
  if (p == "tsp") {
    auto t = std::make_shared<problems::tsp::TspInstance>();
    t->geometry = decode_coords(d, n, where);
    t->name = name;
    return t;
  }
  if (p == "op") {
    auto o = std::make_shared<problems::op::OpInstance>();
    o->geometry = decode_coords(d, n, where);
    o->prizes = field(d.real_arrays, "prizes", where);
    expect_length(o->prizes.size(), n, "prizes", where);
    o->budget = field(d.reals, "budget", where);
    o->start = to_int(field(d.ints, "start", where), "start", where);
    o->end = to_int(field(d.ints, "end", where), "end", where);
    o->name = name;
    validated(where, [&] { problems::op::validate(*o); });
    return o;
  }
  if (p == "cvrp") {
    auto c = std::make_shared<problems::cvrp::CvrpInstance>();
    c->geometry = decode_coords(d, n, where);
    const auto& demands = field(d.int_arrays, "demands", where);
    expect_length(demands.size(), n, "demands", where);
    c->demands.assign(demands.begin(), demands.end());
    c->capacity = to_int(field(d.ints, "capacity", where), "capacity", where);
    c->vehicles = to_int(field(d.ints, "vehicles", where), "vehicles", where);
    c->name = name;
    validated(where, [&] { problems::cvrp::validate(*c); });
    return c;
  }
  if (p == "mis" || p == "mvc") {
    const auto& flat = field(d.int_arrays, "edges", where);
    if (flat.size() % 2 != 0) throw Error(where + ": instance field 'edges' has an odd number of values");
    std::vector<std::pair<int, int>> edges;
    edges.reserve(flat.size() / 2);
    for (std::size_t i = 0; i < flat.size(); i += 2) edges.emplace_back(flat[i], flat[i + 1]);
    auto g = std::make_shared<problems::GraphInstance>();
    validated(where, [&] { g->graph = problems::Graph::from_edges(n, std::move(edges)); });
    if (static_cast<std::size_t>(g->graph.m()) * 2 != flat.size()) throw Error(where + ": instance field 'edges' repeats an edge");
    g->name = name;
    return g;
  }
  if (p == "pfsp") {
    auto f = std::make_shared<problems::pfsp::PfspInstance>();
    f->jobs = n;
    f->machines = to_int(field(d.ints, "machines", where), "machines", where);
    if (f->machines < 1) throw Error(where + ": instance field 'machines' must be positive");
    const auto& times = field(d.int_arrays, "times", where);
    expect_length(times.size(), static_cast<std::size_t>(n) * f->machines, "times", where);
    f->times.assign(times.begin(), times.end());
    for (int t : f->times) {
      if (t < 0) throw Error(where + ": a processing time is negative");
    }
    f->header.seed = field(d.ints, "taillard_seed", where);
    f->header.upper_bound = to_int(field(d.ints, "upper_bound", where), "upper_bound", where);
    f->header.lower_bound = to_int(field(d.ints, "lower_bound", where), "lower_bound", where);
    f->name = name;
    return f;
  }
  if (p == "jssp") {
    auto j = std::make_shared<problems::jssp::JsspInstance>();
    j->jobs = n;
    j->machines = to_int(field(d.ints, "machines", where), "machines", where);
    if (j->machines < 1) throw Error(where + ": instance field 'machines' must be positive");
    const auto& machines = field(d.int_arrays, "route_machines", where);
    const auto& durations = field(d.int_arrays, "route_durations", where);
    const std::size_t ops = static_cast<std::size_t>(n) * j->machines;
    expect_length(machines.size(), ops, "route_machines", where);
    expect_length(durations.size(), ops, "route_durations", where);
    j->routes.assign(n, {});
    for (int job = 0; job < n; ++job) {
      std::vector<bool> seen(j->machines, false);
      for (int k = 0; k < j->machines; ++k) {
        const std::size_t i = static_cast<std::size_t>(job) * j->machines + k;
        if (machines[i] < 0 || machines[i] >= j->machines || seen[machines[i]] || durations[i] < 0) {
          throw Error(where + ": job " + std::to_string(job) + " does not visit every machine once with a duration >= 0");
        }
        seen[machines[i]] = true;
        j->routes[job].push_back({machines[i], durations[i]});
      }
    }
    j->name = name;
    return j;
  }
  throw Error("no dataset decoding for problem '" + p + "'");
}

}  // namespace falcon::data
