#include "falcon/problems/cvrp.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "falcon/core/error.h"
#include "falcon/problems/compact_text.h"
#include "falcon/problems/cvrp_files.h"
#include "falcon/problems/list_ops.h"
#include "falcon/problems/params.h"

namespace falcon::problems::cvrp {
namespace {

constexpr int kMaxDemand = 9;  // generated demands are U{1..kMaxDemand}

bool is_customer(const CvrpInstance& instance, int v) { return v >= 1 && v < instance.size(); }

// Cheapest position to insert v into the open path depot -> route -> depot.
std::pair<std::size_t, double> cheapest_insertion(const RoutingGeometry& g, const std::vector<int>& route, int v) {
  std::size_t best_pos = 0;
  double best_cost = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i <= route.size(); ++i) {
    const int prev = i == 0 ? 0 : route[i - 1];
    const int next = i == route.size() ? 0 : route[i];
    const double cost = g.d(prev, v) + g.d(v, next) - g.d(prev, next);
    if (cost < best_cost) best_cost = cost, best_pos = i;
  }
  return {best_pos, best_cost};
}

// Split point of an overloaded route (Appendix E): the i in [1, |r|) minimising
// SplitCost(r, i) = d(r[i-1], 0) + d(0, r[i]) - d(r[i-1], r[i]) among those whose prefix
// r[0..i) fits; ties go to the longer prefix (fewer later splits). i = 1 always fits since
// every demand is <= capacity, so the split exists and the loop that calls this terminates.
std::size_t split_point(const CvrpInstance& instance, const std::vector<int>& route) {
  const RoutingGeometry& g = instance.geometry;
  std::size_t best = 1;
  double best_cost = std::numeric_limits<double>::infinity();
  int prefix_load = 0;
  for (std::size_t i = 1; i < route.size(); ++i) {
    prefix_load += instance.demands[route[i - 1]];
    if (prefix_load > instance.capacity) break;
    const double cost = g.d(route[i - 1], 0) + g.d(0, route[i]) - g.d(route[i - 1], route[i]);
    if (cost <= best_cost) best_cost = cost, best = i;
  }
  return best;
}

// LCS-based insert/delete distance over 64-bit tokens (so the separator cannot collide with
// any int id, however garbled).
int token_distance(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
  std::vector<int> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
    }
    std::swap(prev, cur);
  }
  return static_cast<int>(a.size() + b.size()) - 2 * prev[b.size()];
}

std::vector<std::int64_t> encode(const Solution& s) {
  constexpr std::int64_t kSeparator = std::numeric_limits<std::int64_t>::min();
  std::vector<std::int64_t> out;
  for (const auto& route : s.lists) {
    out.push_back(kSeparator);
    out.insert(out.end(), route.begin(), route.end());
  }
  return out;
}

}  // namespace

int default_capacity(int n) {
  static const int kSizes[] = {10, 20, 50, 100};
  static const int kCapacities[] = {20, 30, 40, 50};
  if (n <= kSizes[0]) return kCapacities[0];
  for (int i = 1; i < 4; ++i) {
    if (n <= kSizes[i]) {
      const double t = static_cast<double>(n - kSizes[i - 1]) / (kSizes[i] - kSizes[i - 1]);
      return static_cast<int>(std::lround(kCapacities[i - 1] + t * (kCapacities[i] - kCapacities[i - 1])));
    }
  }
  return kCapacities[3];
}

void validate(const CvrpInstance& instance) {
  const int n = instance.size();
  const std::string where = "cvrp instance '" + instance.name + "': ";
  if (n < 2) throw Error(where + "needs a depot and at least one customer (n = " + std::to_string(n) + ")");
  if (static_cast<int>(instance.demands.size()) != n) {
    throw Error(where + std::to_string(instance.demands.size()) + " demands for " + std::to_string(n) + " nodes");
  }
  if (instance.capacity <= 0) throw Error(where + "capacity must be positive (got " + std::to_string(instance.capacity) + ")");
  if (instance.demands[0] != 0) throw Error(where + "the depot (node 0) must have demand 0");
  for (int v = 1; v < n; ++v) {
    if (instance.demands[v] < 0 || instance.demands[v] > instance.capacity) {
      throw Error(where + "customer " + std::to_string(v) + " has demand " + std::to_string(instance.demands[v]) +
                  ", outside 0.." + std::to_string(instance.capacity) + " (the capacity): no route could serve it");
    }
  }
}

std::shared_ptr<CvrpInstance> generate(const GenerateOptions& options, std::uint64_t seed) {
  ParamReader params(options, "cvrp");
  const int modes = params.get_int("modes", 0);
  const double sigma = params.get_double("sigma", 0.07);
  const int capacity = params.get_int("capacity", default_capacity(options.n));
  params.finish();
  if (options.n < 2) throw Error("cvrp generator: n must be at least 2, a depot and a customer (got " + std::to_string(options.n) + ")");
  if (capacity < kMaxDemand) {
    throw Error("cvrp generator: capacity=" + std::to_string(capacity) + " is below the largest demand the generator draws (" +
                std::to_string(kMaxDemand) + "); use capacity >= " + std::to_string(kMaxDemand));
  }
  Rng rng(seed);
  auto instance = std::make_shared<CvrpInstance>();
  instance->geometry = RoutingGeometry::euclidean(sample_points(rng, options.n, options.distribution, modes, sigma));
  instance->demands.assign(options.n, 0);
  for (int v = 1; v < options.n; ++v) instance->demands[v] = rng.uniform_int(1, kMaxDemand);
  instance->capacity = capacity;
  instance->name = "cvrp-n" + std::to_string(options.n) + "-s" + std::to_string(seed);
  validate(*instance);
  return instance;
}

std::string prompt(const CvrpInstance& instance) {
  std::string out = "CVRP n=" + std::to_string(instance.size()) + " cap=" + std::to_string(instance.capacity) + ":";
  const auto coords = prompt_coordinates(instance.geometry.coords);
  for (int i = 0; i < instance.size(); ++i) {
    std::string fields;
    if (!coords.empty()) fields = std::to_string(coords[i].first) + "," + std::to_string(coords[i].second);
    if (i > 0) fields += (fields.empty() ? "" : ",") + std::to_string(instance.demands[i]);
    out += " " + std::to_string(i) + ":(" + fields + ")";
  }
  return out;
}

std::string compact_prompt(const CvrpInstance& instance, int candidates, bool for_echo) {
  // "CVRP:30;#0 50 50:#4#1;#1 12 87 5:#3#7;" — the capacity, then the depot's ID and grid
  // coordinates 0..99, then each customer's with its demand; every node lists its nearest
  // customers (the depot is never written in a route, so it is never a candidate).
  const auto xy = prompt_coordinates(instance.geometry.coords, /*grid=*/100);
  const auto near = nearest_neighbours(instance.geometry, candidates, /*first=*/1);
  std::string out = "CVRP:" + std::to_string(instance.capacity) + ";";
  for (int i = 0; i < instance.size(); ++i) {
    std::vector<double> numbers;
    if (!xy.empty()) numbers = {double(xy[i].first), double(xy[i].second)};
    if (i > 0) numbers.insert(for_echo ? numbers.begin() : numbers.end(), instance.demands[i]);
    std::vector<int> near_demands;
    if (for_echo)
      for (int c : near[i]) near_demands.push_back(instance.demands[c]);
    out += compact_clause(i, numbers, near[i], near_demands);
  }
  return out;
}

EchoNotes echo_notes(const CvrpInstance& instance, const Solution& routes) {
  EchoNotes notes;
  for (const auto& route : routes.lists) {
    long long left = instance.capacity;  // long long: a model's route may be any length
    notes.emplace_back();
    for (int v : route) {
      // The demand first: copying it from v's clause and subtracting it from the previous note
      // are two easy steps where one note of the capacity left alone asks for both at once.
      const int demand = v > 0 && v < instance.size() ? instance.demands[v] : 0;
      left -= demand;
      notes.back().push_back(std::to_string(demand) + " " + std::to_string(std::max(left, 0LL)));
    }
  }
  return notes;
}

EchoNotes ranked_notes(const CvrpInstance& instance, const Solution& routes) {
  std::vector<char> visited(instance.size(), 0);
  EchoNotes notes;
  for (const auto& route : routes.lists) {
    long long left = instance.capacity;  // long long: a model's route may be any length
    int at = 0;                          // the depot
    notes.emplace_back();
    for (int v : route) {
      if (is_customer(instance, v)) {
        if (!visited[v]) left -= instance.demands[v];
        visited[v] = 1;
        at = v;
      }
      std::vector<int> fits, unvisited;  // ascending IDs
      for (int u = 1; u < instance.size(); ++u) {
        if (visited[u]) continue;
        unvisited.push_back(u);
        if (instance.demands[u] <= left) fits.push_back(u);
      }
      const RoutingGeometry& g = instance.geometry;
      if (!fits.empty())
        notes.back().push_back(id_list_text(nearest_first(g, at, fits)));
      else if (!unvisited.empty())
        notes.back().push_back("#0" + id_list_text(nearest_first(g, 0, unvisited)));
      else
        notes.back().push_back("");
    }
  }
  return notes;
}

Solution ranked_order(const CvrpInstance& instance, const Solution& routes) {
  const RoutingGeometry& g = instance.geometry;
  // A route's distance from the depot: its first customer's; routes that start off the map last.
  auto from_depot = [&](const std::vector<int>& route) {
    return !route.empty() && is_customer(instance, route.front()) ? g.d(0, route.front())
                                                                  : std::numeric_limits<double>::infinity();
  };
  Solution out = routes;
  for (auto& route : out.lists) {
    std::vector<int> reversed(route.rbegin(), route.rend());
    if (from_depot(reversed) < from_depot(route)) route = std::move(reversed);
  }
  std::stable_sort(out.lists.begin(), out.lists.end(),
                   [&](const std::vector<int>& a, const std::vector<int>& b) { return from_depot(a) < from_depot(b); });
  return out;
}

SymmetricCopy symmetric_copy(const CvrpInstance& instance, const Solution& routes, Rng& rng) {
  const int symmetry = rng.uniform_int(0, 7);
  const std::vector<int> relabel = random_relabelling(instance.size(), {0}, rng);  // the depot stays 0
  auto copy = std::make_shared<CvrpInstance>(instance);  // capacity and fleet as they are
  copy->geometry = symmetric_geometry(instance.geometry, relabel, symmetry);
  for (int i = 0; i < instance.size(); ++i) copy->demands[relabel[i]] = instance.demands[i];
  copy->name = instance.name + "~" + std::to_string(symmetry);
  Solution moved = relabelled(routes, relabel);
  for (auto& route : moved.lists)  // each route reads the same either way round
    if (rng.bernoulli(0.5)) std::reverse(route.begin(), route.end());
  return {copy, moved, relabel, {}};
}

double total_length(const CvrpInstance& instance, const Solution& solution) {
  double total = 0;
  for (const auto& route : solution.lists) {
    std::vector<int> valid;
    for (int v : route) {
      if (v >= 0 && v < instance.size()) valid.push_back(v);
    }
    if (!valid.empty()) total += path_length(instance.geometry, 0, valid, 0);
  }
  return total;
}

int route_load(const CvrpInstance& instance, const std::vector<int>& route) {
  int load = 0;
  for (int v : route) {
    if (is_customer(instance, v)) load += instance.demands[v];
  }
  return load;
}

ViolationCounts violation_counts(const CvrpInstance& instance, const Solution& solution) {
  ViolationCounts c;
  std::vector<char> seen(instance.size(), 0);
  int covered = 0;
  for (const auto& route : solution.lists) {
    int kept = 0;
    long long load = 0;
    for (int v : route) {
      if (!is_customer(instance, v)) {
        ++c.invalid;
      } else if (seen[v]) {
        ++c.duplicates;
      } else {
        seen[v] = 1;
        ++kept;
        load += instance.demands[v];
      }
    }
    covered += kept;
    if (kept == 0) ++c.empty_routes;
    if (load > instance.capacity) c.overload += std::max(1, kept - 1);
  }
  c.missing = instance.size() - 1 - covered;
  return c;
}

double violation(const CvrpInstance& instance, const Solution& solution) {
  return violation_counts(instance, solution).total();
}

bool feasible(const CvrpInstance& instance, const Solution& solution) {
  return violation_counts(instance, solution).total() == 0;
}

Solution repair_routes(const CvrpInstance& instance, const Solution& solution) {
  if (feasible(instance, solution)) return solution;
  const RoutingGeometry& g = instance.geometry;
  const int n = instance.size();

  // 1. Keep first occurrences of customers (across routes), drop the rest and emptied routes.
  std::vector<std::vector<int>> routes;
  std::vector<int> loads;
  std::vector<char> seen(n, 0);
  for (const auto& route : solution.lists) {
    std::vector<int> kept;
    int load = 0;
    for (int v : route) {
      if (!is_customer(instance, v) || seen[v]) continue;
      seen[v] = 1;
      kept.push_back(v);
      load += instance.demands[v];
    }
    if (!kept.empty()) routes.push_back(std::move(kept)), loads.push_back(load);
  }

  // 2. Missing customers: cheapest insertion into a route with room, else a new route.
  for (int v = 1; v < n; ++v) {
    if (seen[v]) continue;
    const int q = instance.demands[v];
    std::size_t best_route = routes.size(), best_pos = 0;
    double best_cost = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < routes.size(); ++k) {
      if (loads[k] + q > instance.capacity) continue;
      const auto [pos, cost] = cheapest_insertion(g, routes[k], v);
      if (cost < best_cost) best_cost = cost, best_route = k, best_pos = pos;
    }
    if (best_route == routes.size()) {
      routes.push_back({v});
      loads.push_back(q);
    } else {
      routes[best_route].insert(routes[best_route].begin() + static_cast<std::ptrdiff_t>(best_pos), v);
      loads[best_route] += q;
    }
  }

  // 3. Split overloaded routes; the suffix goes right after its prefix and is checked next.
  for (std::size_t k = 0; k < routes.size(); ++k) {
    if (loads[k] <= instance.capacity) continue;
    const std::size_t i = split_point(instance, routes[k]);
    std::vector<int> suffix(routes[k].begin() + static_cast<std::ptrdiff_t>(i), routes[k].end());
    routes[k].resize(i);
    const int prefix_load = route_load(instance, routes[k]);
    routes.insert(routes.begin() + static_cast<std::ptrdiff_t>(k) + 1, std::move(suffix));
    loads.insert(loads.begin() + static_cast<std::ptrdiff_t>(k) + 1, loads[k] - prefix_load);
    loads[k] = prefix_load;
  }
  return Solution{std::move(routes)};
}

double repair_distance(const Solution& repaired, const Solution& original) {
  return token_distance(encode(original), encode(repaired));
}

namespace {

class CvrpProblem final : public Problem {
 public:
  CvrpProblem()
      : Problem("cvrp", Sense::kMinimize, kLocalityConstant,
                {"Routes", /*nested=*/true, /*allow_empty=*/false, 0, 1, "cvrp", /*index_prefix=*/"", /*echo=*/false}) {}
  std::shared_ptr<Instance> generate(const GenerateOptions& options, std::uint64_t seed) const override {
    return cvrp::generate(options, seed);
  }
  std::shared_ptr<Instance> read_file(const std::string& path) const override { return cvrp::read_file(path); }
  std::string prompt(const Instance& instance) const override { return cvrp::prompt(cast(instance)); }
  SymmetricCopy symmetric_copy(const Instance& instance, const Solution& solution, Rng& rng) const override {
    return cvrp::symmetric_copy(cast(instance), solution, rng);
  }
  double objective(const Instance& instance, const Solution& solution) const override {
    return total_length(cast(instance), solution);
  }
  bool feasible(const Instance& instance, const Solution& solution) const override {
    return cvrp::feasible(cast(instance), solution);
  }
  double violation(const Instance& instance, const Solution& solution) const override {
    return cvrp::violation(cast(instance), solution);
  }
  Solution repair(const Instance& instance, const Solution& solution) const override {
    return repair_routes(cast(instance), solution);
  }
  double repair_distance(const Instance&, const Solution& repaired, const Solution& original) const override {
    return cvrp::repair_distance(repaired, original);
  }
  std::unique_ptr<SemanticConstraint> semantic_constraint(std::shared_ptr<const Instance> instance) const override {
    return make_cvrp_constraint(std::move(instance));
  }
  Picture picture(const Instance& instance, const Solution& solution, const Solution* raw) const override {
    const CvrpInstance& c = cast(instance);
    const auto routes = [&c](const Solution& s) {
      std::vector<std::vector<int>> paths;
      for (const auto& route : s.lists) {
        std::vector<int> path = {0};
        for (int v : in_range(route, c.geometry.n)) path.push_back(v);
        path.push_back(0);
        paths.push_back(std::move(path));
      }
      return paths;
    };
    RouteMap map;
    map.coords = c.geometry.coords;
    map.depots = {0};
    map.depot_label = "depot";
    map.route_label = "route";
    map.paths = routes(solution);
    if (raw != nullptr) mark_route_repair(map, routes(*raw), *raw, solution);
    return map;
  }

  const std::vector<FieldSpec>& instance_fields() const override {
    static const std::vector<FieldSpec> fields = {
        kCoordsField,
        {"demands", FieldKind::kIntArray, "n demands, by node (node 0, the depot, has 0)"},
        {"capacity", FieldKind::kInt, "vehicle capacity"},
        {"vehicles", FieldKind::kInt, "fleet size k of a CVRPLIB name, 0 when unknown (generated)"}};
    return fields;
  }
  InstanceData encode_instance(const Instance& instance) const override {
    const CvrpInstance& c = cast(instance);
    InstanceData d;
    d.real_arrays["coords"] = encode_coords(c.geometry, "cvrp instance '" + instance.name + "'");
    d.int_arrays["demands"].assign(c.demands.begin(), c.demands.end());
    d.ints["capacity"] = c.capacity;
    d.ints["vehicles"] = c.vehicles;
    return d;
  }
  std::shared_ptr<Instance> decode_instance(const InstanceData& data, int n, const std::string& name,
                                            const std::string& where) const override {
    auto c = std::make_shared<CvrpInstance>();
    c->geometry = decode_coords(data, n, where);
    const auto& demands = required_field(data.int_arrays, "demands", where);
    expect_length(demands.size(), n, "demands", where);
    c->demands.assign(demands.begin(), demands.end());
    c->capacity = int_field(data, "capacity", where);
    c->vehicles = int_field(data, "vehicles", where);
    c->name = name;
    validated(where, [&] { cvrp::validate(*c); });
    return c;
  }

 private:
  static const CvrpInstance& cast(const Instance& i) { return instance_as<CvrpInstance>(i, "cvrp"); }
};

}  // namespace

const Problem& problem() {
  static const CvrpProblem instance;
  return instance;
}

}  // namespace falcon::problems::cvrp
