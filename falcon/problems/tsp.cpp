#include "falcon/problems/tsp.h"

#include <filesystem>

#include "falcon/core/error.h"
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

namespace {

class TspProblem final : public Problem {
 public:
  std::string_view name() const override { return "tsp"; }
  Sense sense() const override { return Sense::kMinimize; }
  TextFormat text_format() const override { return {"Route", /*nested=*/false, /*index_base=*/0}; }
  GrammarSpec grammar(const Instance& instance) const override {
    return {"Route", /*nested=*/false, /*allow_empty=*/false, 0, instance.size() - 1};
  }
  std::shared_ptr<Instance> generate(const GenerateOptions& options, std::uint64_t seed) const override {
    return tsp::generate(options, seed);
  }
  std::shared_ptr<Instance> read_file(const std::string& path) const override { return tsp::read_file(path); }
  std::string prompt(const Instance& instance) const override { return tsp::prompt(cast(instance)); }
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
  double locality_constant() const override { return 1.0; }

 private:
  static const TspInstance& cast(const Instance& i) { return instance_as<TspInstance>(i, "tsp"); }
};

}  // namespace

const Problem& problem() {
  static const TspProblem instance;
  return instance;
}

}  // namespace falcon::problems::tsp
