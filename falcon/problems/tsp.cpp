#include "falcon/problems/tsp.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "falcon/core/error.h"
#include "falcon/problems/compact_text.h"
#include "falcon/problems/list_ops.h"
#include "falcon/problems/params.h"
#include "falcon/problems/tsplib.h"

namespace falcon::problems::tsp {

std::shared_ptr<TspInstance> generate(const GenerateOptions& options, std::uint64_t seed) {
  ParamReader params(options, "tsp");
  const int modes = params.get_int("modes", 0);
  const double sigma = params.get_double("sigma", 0.07);
  params.finish();
  if (options.n < 3) throw Error("tsp generator: n must be at least 3 (got " + std::to_string(options.n) + ")");
  Rng rng(seed);
  auto instance = std::make_shared<TspInstance>();
  instance->geometry = RoutingGeometry::euclidean(sample_points(rng, options.n, options.distribution, modes, sigma));
  instance->name = "tsp-n" + std::to_string(options.n) + "-s" + std::to_string(seed);
  return instance;
}

std::shared_ptr<TspInstance> read_file(const std::string& path) {
  TsplibFile file = read_tsplib(path);
  if (file.header.count("TYPE") && file.header.at("TYPE") != "TSP") {
    throw Error(path + ": TYPE is '" + file.header.at("TYPE") + "', expected TSP");
  }
  auto instance = std::make_shared<TspInstance>();
  instance->geometry = std::move(file.geometry);
  instance->name = std::filesystem::path(path).stem().string();
  return instance;
}

Solution read_tour_file(const std::string& path, int n) {
  const TsplibFile file = read_tsplib(path);
  if (file.dimension != n) {
    throw Error(path + ": the tour has DIMENSION " + std::to_string(file.dimension) + " but the instance has " + std::to_string(n) + " nodes");
  }
  if (file.tour.empty()) throw Error(path + ": no TOUR_SECTION (is this a .tour file?)");
  return Solution::flat(file.tour);
}

std::string prompt(const TspInstance& instance) {
  // "TSP n=3: 0:(12,873) 1:(500,3) 2:(999,41)" — one clause per node, integer coordinates.
  std::string out = "TSP n=" + std::to_string(instance.size()) + ":";
  const auto coords = prompt_coordinates(instance.geometry.coords);
  for (std::size_t i = 0; i < coords.size(); ++i) {
    out += " " + std::to_string(i) + ":(" + std::to_string(coords[i].first) + "," + std::to_string(coords[i].second) + ")";
  }
  return out;
}

std::string compact_prompt(const TspInstance& instance, int candidates) {
  // "TSP:#0 12 87:#5#3;#1 40 2:#7#4;" — ID, grid coordinates 0..99, nearest neighbours' IDs.
  const auto coords = prompt_coordinates(instance.geometry.coords, /*grid=*/100);
  const auto near = nearest_neighbours(instance.geometry, candidates);
  std::string out = "TSP:";
  for (int i = 0; i < instance.size(); ++i) {
    std::vector<double> xy;
    if (!coords.empty()) xy = {double(coords[i].first), double(coords[i].second)};
    out += compact_clause(i, xy, near[i]);
  }
  return out;
}

double tour_length(const TspInstance& instance, const std::vector<int>& tour) {
  std::vector<int> valid;
  for (int v : tour) {
    if (v >= 0 && v < instance.size()) valid.push_back(v);
  }
  return closed_tour_length(instance.geometry, valid);
}

double violation(const TspInstance& instance, const Solution& solution) {
  const Deduplicated d = deduplicate(solution.items(), 0, instance.size() - 1);
  const int missing = instance.size() - static_cast<int>(d.kept.size());
  return d.invalid + d.duplicates + missing + (solution.lists.size() == 1 ? 0 : 1);
}

bool feasible(const TspInstance& instance, const Solution& solution) { return violation(instance, solution) == 0; }

std::vector<int> repair_tour(const TspInstance& instance, const std::vector<int>& tour) {
  const RoutingGeometry& g = instance.geometry;
  std::vector<int> route = deduplicate(tour, 0, instance.size() - 1).kept;
  for (int v : missing_indices(route, 0, instance.size() - 1)) {
    if (route.size() < 2) {
      route.push_back(v);
      continue;
    }
    // Cheapest insertion on the closed tour: between route[i-1] and route[i mod k].
    std::size_t best_pos = route.size();
    double best_cost = g.d(route.back(), v) + g.d(v, route.front()) - g.d(route.back(), route.front());
    for (std::size_t i = 1; i < route.size(); ++i) {
      const double cost = g.d(route[i - 1], v) + g.d(v, route[i]) - g.d(route[i - 1], route[i]);
      if (cost < best_cost) best_cost = cost, best_pos = i;
    }
    route.insert(route.begin() + static_cast<std::ptrdiff_t>(best_pos), v);
  }
  return route;
}

SymmetricCopy symmetric_copy(const TspInstance& instance, const Solution& tour, Rng& rng) {
  const int n = instance.size();
  const int symmetry = rng.uniform_int(0, 7);
  const std::vector<int> relabel = random_relabelling(n, {}, rng);
  auto copy = std::make_shared<TspInstance>();
  copy->geometry = symmetric_geometry(instance.geometry, relabel, symmetry);
  copy->name = instance.name + "~" + std::to_string(symmetry);
  std::vector<int> route = relabelled(tour, relabel).items();
  if (rng.bernoulli(0.5)) std::reverse(route.begin(), route.end());
  const auto zero = std::find(route.begin(), route.end(), 0);
  if (zero != route.end()) std::rotate(route.begin(), zero, route.end());
  return {copy, Solution::flat(route), relabel, {}};
}

EchoNotes ranked_notes(const TspInstance& instance, const Solution& tour) {
  const int n = instance.size();
  std::vector<char> visited(n, 0);
  int at = 0;  // before any node: node 0, not yet visited
  EchoNotes notes;
  for (const auto& list : tour.lists) {
    notes.emplace_back();
    for (int v : list) {
      if (v >= 0 && v < n) visited[v] = 1, at = v;
      std::vector<int> unvisited;  // ascending IDs
      for (int u = 0; u < n; ++u)
        if (!visited[u]) unvisited.push_back(u);
      notes.back().push_back(id_list_text(nearest_first(instance.geometry, at, std::move(unvisited), kRankedNoteSize)));
    }
  }
  return notes;
}

Solution ranked_order(const TspInstance& instance, const Solution& tour) {
  if (tour.lists.size() != 1) return tour;
  std::vector<int> route = tour.lists.front();
  if (std::count(route.begin(), route.end(), 0) != 1) return tour;
  std::rotate(route.begin(), std::find(route.begin(), route.end(), 0), route.end());
  const int second = route.size() > 2 ? route[1] : -1, last = route.size() > 2 ? route.back() : -1;
  const auto in_range = [&](int v) { return v >= 0 && v < instance.size(); };
  if (in_range(second) && in_range(last) && instance.geometry.d(0, last) < instance.geometry.d(0, second))
    std::reverse(route.begin() + 1, route.end());
  return Solution::flat(route);
}

namespace {

class TspProblem final : public Problem {
 public:
  TspProblem()
      : Problem("tsp", Sense::kMinimize, 1.0,
                {"Route", /*nested=*/false, /*allow_empty=*/false, 0, 0, "tsp", /*index_prefix=*/"", /*echo=*/false}) {}
  std::shared_ptr<Instance> generate(const GenerateOptions& options, std::uint64_t seed) const override {
    return tsp::generate(options, seed);
  }
  std::shared_ptr<Instance> read_file(const std::string& path) const override { return tsp::read_file(path); }
  std::string prompt(const Instance& instance) const override { return tsp::prompt(cast(instance)); }
  SymmetricCopy symmetric_copy(const Instance& instance, const Solution& solution, Rng& rng) const override {
    return tsp::symmetric_copy(cast(instance), solution, rng);
  }
  double objective(const Instance& instance, const Solution& solution) const override {
    return tour_length(cast(instance), solution.items());
  }
  bool feasible(const Instance& instance, const Solution& solution) const override {
    return tsp::feasible(cast(instance), solution);
  }
  double violation(const Instance& instance, const Solution& solution) const override {
    return tsp::violation(cast(instance), solution);
  }
  Solution repair(const Instance& instance, const Solution& solution) const override {
    if (tsp::feasible(cast(instance), solution)) return solution;
    return Solution::flat(repair_tour(cast(instance), solution.items()));
  }
  // Deletions + insertions (+1 for fixing the list count): alpha = 1 (Appendix E.1).
  double repair_distance(const Instance&, const Solution& repaired, const Solution& original) const override {
    return insert_delete_distance(original.items(), repaired.items()) + (original.lists.size() == repaired.lists.size() ? 0 : 1);
  }
  std::unique_ptr<SemanticConstraint> semantic_constraint(std::shared_ptr<const Instance> instance) const override {
    return make_tsp_constraint(std::move(instance));
  }
  Picture picture(const Instance& instance, const Solution& solution, const Solution* raw) const override {
    const TspInstance& t = cast(instance);
    const auto tour = [&t](const Solution& s) {  // closed: back to the first node
      std::vector<int> path = in_range(s.items(), t.geometry.n);
      if (!path.empty()) path.push_back(path.front());
      return std::vector<std::vector<int>>{path};
    };
    RouteMap map;
    map.coords = t.geometry.coords;
    map.route_label = "tour";
    map.paths = tour(solution);
    if (raw != nullptr) mark_route_repair(map, tour(*raw), *raw, solution);
    return map;
  }

  const std::vector<FieldSpec>& instance_fields() const override {
    static const std::vector<FieldSpec> fields = {kCoordsField};
    return fields;
  }
  InstanceData encode_instance(const Instance& instance) const override {
    InstanceData d;
    d.real_arrays["coords"] = encode_coords(cast(instance).geometry, "tsp instance '" + instance.name + "'");
    return d;
  }
  std::shared_ptr<Instance> decode_instance(const InstanceData& data, int n, const std::string& name,
                                            const std::string& where) const override {
    auto t = std::make_shared<TspInstance>();
    t->geometry = decode_coords(data, n, where);
    t->name = name;
    return t;
  }

 private:
  static const TspInstance& cast(const Instance& i) { return instance_as<TspInstance>(i, "tsp"); }
};

}  // namespace

const Problem& problem() {
  static const TspProblem instance;
  return instance;
}

}  // namespace falcon::problems::tsp
