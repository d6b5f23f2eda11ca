#include "falcon/problems/op.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "falcon/core/error.h"
#include "falcon/problems/compact_text.h"
#include "falcon/problems/list_ops.h"
#include "falcon/problems/op_files.h"
#include "falcon/problems/params.h"

// Bounded locality (Definition 3.3) for the OP repair.
//
// The paper (Appendix E) uses v(r) = max(0, TotalDistance(r) - D) and claims the number of
// removed nodes is bounded by it. That is false for any constant alpha: a route that exceeds
// D by epsilon still needs at least one removal, so d/v = 1/epsilon is unbounded; and routes
// with repeated or invalid ids (infeasible) can have v = 0. Nor can a count of the fewest
// removals that would fit the budget serve as v: the repair removes by prize/contribution
// ratio, not by count, and can remove many cheap-ratio nodes where one long detour would do.
//
// What we use instead (d = insert/delete distance, the same as TSP; x = the listed ids;
// clean(x) = x without invalid ids, start/end ids and repeats):
//   v(x) = |x| - |clean(x)|  if clean(x) fits the budget,   v(x) = |x|  otherwise,
//   plus 1 when x is not exactly one list (and d adds 1 when the list count changes).
// Claim: d(R(x), x) <= 1 * v(x). Proof: R(x) is a subsequence of clean(x), which is a
// subsequence of x, so d(R(x), x) = |x| - |R(x)|. If clean(x) fits, the removal loop does
// not run and R(x) = clean(x), so d = |x| - |clean(x)| = v. Otherwise d <= |x| = v.
// And v = 0 iff feasible: v = 0 means one list, no entry dropped by cleaning, and a
// route that fits. v depends only on x and the instance, not on the repair's choices.
// The price of honesty: an over-budget route counts as violated in all its entries, so
// the Repair Quality Bound f(R(x)) >= f(x) - p_max * v(x) is loose there. budget_excess()
// still reports the paper's quantity for analysis.

namespace falcon::problems::op {
namespace {

bool valid_id(const OpInstance& instance, int v) { return v >= 0 && v < instance.size(); }

// Added length of visiting v between a and b (DistContrib of Appendix E).
double detour(const RoutingGeometry& g, int a, int v, int b) { return g.d(a, v) + g.d(v, b) - g.d(a, b); }

}  // namespace

void validate(const OpInstance& instance) {
  const int n = instance.size();
  const std::string where = "op instance '" + instance.name + "': ";
  if (n < 2) throw Error(where + "needs at least 2 nodes (got " + std::to_string(n) + ")");
  if (static_cast<int>(instance.prizes.size()) != n) {
    throw Error(where + "has " + std::to_string(instance.prizes.size()) + " prizes for " + std::to_string(n) + " nodes");
  }
  if (!valid_id(instance, instance.start) || !valid_id(instance, instance.end)) {
    throw Error(where + "start or end node out of range");
  }
  for (double p : instance.prizes) {
    if (!std::isfinite(p) || p < 0) throw Error(where + "prizes must be finite and >= 0");
  }
  for (double d : instance.geometry.distance) {
    if (!std::isfinite(d)) throw Error(where + "a distance is not finite");
  }
  const double direct = instance.geometry.d(instance.start, instance.end);
  if (!std::isfinite(instance.budget) || !within_budget(instance, direct)) {
    throw Error(where + "budget " + std::to_string(instance.budget) + " is below the start-end distance " +
                std::to_string(direct) + ": no route is feasible");
  }
}

double default_budget(int n) {
  if (n <= 20) return 2.0;
  if (n <= 50) return 2.0 + (n - 20) / 30.0;
  if (n <= 100) return 3.0 + (n - 50) / 50.0;
  return 4.0;
}

std::shared_ptr<OpInstance> generate(const GenerateOptions& options, std::uint64_t seed) {
  ParamReader params(options, "op");
  const int modes = params.get_int("modes", 0);
  const double sigma = params.get_double("sigma", 0.07);
  const std::string prize = params.get_string("prize", "distance");
  const double budget = params.get_double("budget", default_budget(options.n));
  params.finish();
  const int n = options.n;
  if (n < 2) throw Error("op generator: n must be at least 2 (got " + std::to_string(n) + ")");
  if (prize != "const" && prize != "uniform" && prize != "distance") {
    throw Error("op generator: unknown prize='" + prize + "' (use const, uniform or distance)");
  }
  Rng rng(seed);
  auto instance = std::make_shared<OpInstance>();
  instance->geometry = RoutingGeometry::euclidean(sample_points(rng, n, options.distribution, modes, sigma));
  // Kool et al. (2019): const = 1; uniform = (1 + U{0..99}) / 100; distance = (1 + floor(99 d_0i /
  // max_j d_0j)) / 100, so far nodes are worth more. The depot has no prize.
  instance->prizes.assign(n, 0.0);
  double far = 0;
  for (int i = 1; i < n; ++i) far = std::max(far, instance->geometry.d(0, i));
  for (int i = 1; i < n; ++i) {
    if (prize == "const") {
      instance->prizes[i] = 1.0;
    } else if (prize == "uniform") {
      instance->prizes[i] = (1 + rng.uniform_int(0, 99)) / 100.0;
    } else {
      const double ratio = far > 0 ? instance->geometry.d(0, i) / far : 0.0;
      instance->prizes[i] = (1 + std::floor(99 * ratio)) / 100.0;
    }
  }
  instance->budget = budget;
  instance->name = "op-n" + std::to_string(n) + "-s" + std::to_string(seed);
  validate(*instance);
  return instance;
}

std::shared_ptr<OpInstance> read_file(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".oplib") return read_oplib(path);
  if (ext == ".txt") return read_tsiligirides(path);
  throw Error(path + ": unknown OP file type '" + ext + "' (use .oplib for OPLib, .txt for Tsiligirides/Chao)");
}

namespace {
// Prizes as the prompts write them: as they are when all are integers (OPLib, Tsiligirides,
// const) and as round(100 p) otherwise (the generator's prizes are multiples of 1/100).
std::vector<double> prompt_prizes(const OpInstance& instance) {
  const bool integral = std::all_of(instance.prizes.begin(), instance.prizes.end(), [](double p) { return p == std::floor(p); });
  std::vector<double> out;
  for (double p : instance.prizes) out.push_back(std::round(integral ? p : 100 * p));
  return out;
}
}  // namespace

std::string prompt(const OpInstance& instance) {
  // "OP n=3 budget=2000: 0:(12,873,0) 1:(500,3,57) 2:(999,41,100)". Coordinates follow
  // prompt_coordinates (floor(1000 x), or scaled by 1000 / largest extent for file
  // coordinates); the budget is scaled the same way and floored. s-t paths add
  // "start=.. end=..". The scaled budget means something only when distances come from the
  // coordinates (not GEO/EXPLICIT).
  const auto prizes = prompt_prizes(instance);
  std::string out = "OP n=" + std::to_string(instance.size()) +
                    " budget=" + whole_number_text(std::floor(instance.budget * prompt_scale(instance.geometry.coords)));
  if (instance.start != 0 || instance.end != 0) {
    out += " start=" + std::to_string(instance.start) + " end=" + std::to_string(instance.end);
  }
  out += ":";
  const auto xy = prompt_coordinates(instance.geometry.coords);
  for (int i = 0; i < instance.size(); ++i) {
    out += " " + std::to_string(i) + ":(";
    if (!xy.empty()) out += std::to_string(xy[i].first) + "," + std::to_string(xy[i].second) + ",";
    out += whole_number_text(prizes[i]) + ")";
  }
  return out;
}

std::string compact_prompt(const OpInstance& instance, int candidates) {
  // "OP:200;#0 50 50 0:#5#3;#1 12 87 57:#2#4;" — the budget on the coordinates' 0..99 grid, then
  // per node its ID, grid coordinates, prize and nearest neighbours. The start and end are
  // never candidates (the route text leaves them out); an s-t path names them: "OP:200#0#1;".
  const auto prizes = prompt_prizes(instance);
  const auto xy = prompt_coordinates(instance.geometry.coords, /*grid=*/100);
  const auto near = nearest_neighbours(instance.geometry, candidates + 2);
  std::string out = "OP:" + whole_number_text(std::floor(instance.budget * prompt_scale(instance.geometry.coords, 100)));
  if (instance.start != 0 || instance.end != 0) out += "#" + std::to_string(instance.start) + "#" + std::to_string(instance.end);
  out += ";";
  for (int i = 0; i < instance.size(); ++i) {
    std::vector<double> numbers;
    if (!xy.empty()) numbers = {double(xy[i].first), double(xy[i].second)};
    numbers.push_back(prizes[i]);
    std::vector<int> ids;
    for (int j : near[i])
      if (j != instance.start && j != instance.end && static_cast<int>(ids.size()) < candidates) ids.push_back(j);
    out += compact_clause(i, numbers, ids);
  }
  return out;
}

SymmetricCopy symmetric_copy(const OpInstance& instance, const Solution& route, Rng& rng) {
  const int symmetry = rng.uniform_int(0, 7);
  const std::vector<int> relabel = random_relabelling(instance.size(), {instance.start, instance.end}, rng);
  auto copy = std::make_shared<OpInstance>(instance);  // budget, start and end as they are
  copy->geometry = symmetric_geometry(instance.geometry, relabel, symmetry);
  for (int i = 0; i < instance.size(); ++i) copy->prizes[relabel[i]] = instance.prizes[i];
  copy->name = instance.name + "~" + std::to_string(symmetry);
  Solution moved = relabelled(route, relabel);
  // A depot tour reads the same either way round; an s-t path does not.
  if (instance.start == instance.end && rng.bernoulli(0.5))
    for (auto& list : moved.lists) std::reverse(list.begin(), list.end());
  return {copy, moved, relabel, {}};
}

double route_length(const OpInstance& instance, const std::vector<int>& route) {
  std::vector<int> valid;
  for (int v : route) {
    if (valid_id(instance, v)) valid.push_back(v);
  }
  return path_length(instance.geometry, instance.start, valid, instance.end);
}

EchoNotes echo_notes(const OpInstance& instance, const Solution& route) {
  const RoutingGeometry& g = instance.geometry;
  const double scale = prompt_scale(g.coords, /*grid=*/100);  // the budget's scale in the prompt
  EchoNotes notes;
  for (const auto& list : route.lists) {
    notes.emplace_back();
    double travelled = 0.0;  // start -> ... -> last
    int last = instance.start;
    for (int v : list) {
      if (valid_id(instance, v)) {
        travelled += g.d(last, v);
        last = v;
      }
      const double left = (instance.budget - travelled - g.d(last, instance.end)) * scale;
      notes.back().push_back(std::to_string(static_cast<long long>(std::max(0.0, std::floor(left)))));
    }
  }
  return notes;
}

bool better_buy(double prize_a, double added_a, double prize_b, double added_b) {
  const bool free_a = added_a <= 0, free_b = added_b <= 0;
  if (free_a != free_b) return free_a;
  if (free_a) return prize_a > prize_b;
  return prize_a * added_b > prize_b * added_a;  // p_a / a_a > p_b / a_b
}

namespace {

// Where a node stands as the route's next stop after `last`: its added length, then its ID.
struct Candidate {
  int node;
  double added;
};

// The unvisited nodes that fit after `last` with `travelled` used, the better buy first.
std::vector<int> ranked_candidates(const OpInstance& instance, const std::vector<char>& visited, int last,
                                   double travelled) {
  const RoutingGeometry& g = instance.geometry;
  std::vector<Candidate> fits;
  for (int u = 0; u < instance.size(); ++u) {
    if (visited[u] || u == instance.start || u == instance.end) continue;
    if (!within_budget(instance, travelled + g.d(last, u) + g.d(u, instance.end))) continue;
    fits.push_back({u, g.d(last, u) + g.d(u, instance.end) - g.d(last, instance.end)});
  }
  std::sort(fits.begin(), fits.end(), [&](const Candidate& a, const Candidate& b) {
    if (better_buy(instance.prizes[a.node], a.added, instance.prizes[b.node], b.added)) return true;
    if (better_buy(instance.prizes[b.node], b.added, instance.prizes[a.node], a.added)) return false;
    return a.node < b.node;
  });
  std::vector<int> ids;
  for (const Candidate& c : fits) ids.push_back(c.node);
  return ids;
}

}  // namespace

EchoNotes ranked_notes(const OpInstance& instance, const Solution& route) {
  EchoNotes notes;
  for (const auto& list : route.lists) {
    notes.emplace_back();
    std::vector<char> visited(instance.size(), 0);
    double travelled = 0.0;  // start -> ... -> last
    int last = instance.start;
    for (int v : list) {
      if (valid_id(instance, v) && v != instance.start && v != instance.end) {
        travelled += instance.geometry.d(last, v);
        last = v;
        visited[v] = 1;
      }
      notes.back().push_back(id_list_text(ranked_candidates(instance, visited, last, travelled)));
    }
  }
  return notes;
}

Solution ranked_order(const OpInstance& instance, const Solution& route) {
  Solution out = route;
  if (instance.start != instance.end) return out;
  for (auto& list : out.lists) {
    if (list.size() < 2 || !valid_id(instance, list.front()) || !valid_id(instance, list.back())) continue;
    const RoutingGeometry& g = instance.geometry;
    auto added = [&](int u) { return g.d(instance.start, u) + g.d(u, instance.end) - g.d(instance.start, instance.end); };
    const int a = list.front(), b = list.back();
    if (better_buy(instance.prizes[b], added(b), instance.prizes[a], added(a))) std::reverse(list.begin(), list.end());
  }
  return out;
}

double route_prize(const OpInstance& instance, const std::vector<int>& route) {
  double total = instance.prizes[instance.start] + (instance.end != instance.start ? instance.prizes[instance.end] : 0.0);
  for (int v : clean_route(instance, route)) total += instance.prizes[v];
  return total;
}

bool within_budget(const OpInstance& instance, double length) {
  return length <= instance.budget + 1e-9 * std::max(1.0, std::fabs(instance.budget));
}

std::vector<int> clean_route(const OpInstance& instance, const std::vector<int>& route) {
  std::vector<int> kept = deduplicate(route, 0, instance.size() - 1).kept;
  auto implied = [&](int v) { return v == instance.start || v == instance.end; };
  kept.erase(std::remove_if(kept.begin(), kept.end(), implied), kept.end());
  return kept;
}

double violation(const OpInstance& instance, const Solution& solution) {
  const std::vector<int>& x = solution.items();
  const std::vector<int> clean = clean_route(instance, x);
  const bool fits = within_budget(instance, path_length(instance.geometry, instance.start, clean, instance.end));
  const std::size_t at_stake = fits ? x.size() - clean.size() : x.size();
  return static_cast<double>(at_stake) + (solution.lists.size() == 1 ? 0 : 1);
}

bool feasible(const OpInstance& instance, const Solution& solution) { return violation(instance, solution) == 0; }

double budget_excess(const OpInstance& instance, const Solution& solution) {
  const std::vector<int> clean = clean_route(instance, solution.items());
  return std::max(0.0, path_length(instance.geometry, instance.start, clean, instance.end) - instance.budget);
}

std::vector<int> repair_route(const OpInstance& instance, const std::vector<int>& route) {
  const RoutingGeometry& g = instance.geometry;
  std::vector<int> r = clean_route(instance, route);
  while (!r.empty() && !within_budget(instance, path_length(g, instance.start, r, instance.end))) {
    // Smallest prize / DistContrib goes first. A node whose removal does not shorten the
    // route (contribution <= 0: rounded or non-metric distances) ranks after every node whose
    // removal does, lowest prize first; one node leaves per pass, so the loop ends.
    std::size_t worst = 0;
    bool worst_shortens = false;
    double worst_key = 0;
    for (std::size_t i = 0; i < r.size(); ++i) {
      const int prev = i == 0 ? instance.start : r[i - 1];
      const int next = i + 1 == r.size() ? instance.end : r[i + 1];
      const double contrib = detour(g, prev, r[i], next);
      const bool shortens = contrib > 0;
      const double key = shortens ? instance.prizes[r[i]] / contrib : instance.prizes[r[i]];
      if (i == 0 || (shortens && !worst_shortens) || (shortens == worst_shortens && key < worst_key)) {
        worst = i, worst_shortens = shortens, worst_key = key;
      }
    }
    r.erase(r.begin() + static_cast<std::ptrdiff_t>(worst));
  }
  // Unreachable for validated instances (the empty route fits); kept as the paper's fallback.
  if (!within_budget(instance, path_length(g, instance.start, r, instance.end))) return {};
  return r;
}

namespace {

class OpProblem final : public Problem {
 public:
  OpProblem()
      : Problem("op", Sense::kMaximize, 1.0,
                {"Route", /*nested=*/false, /*allow_empty=*/true, 0, 0, "op", /*index_prefix=*/"", /*echo=*/false}) {}
  std::shared_ptr<Instance> generate(const GenerateOptions& options, std::uint64_t seed) const override {
    return op::generate(options, seed);
  }
  std::shared_ptr<Instance> read_file(const std::string& path) const override { return op::read_file(path); }
  std::string prompt(const Instance& instance) const override { return op::prompt(cast(instance)); }
  SymmetricCopy symmetric_copy(const Instance& instance, const Solution& solution, Rng& rng) const override {
    return op::symmetric_copy(cast(instance), solution, rng);
  }
  double objective(const Instance& instance, const Solution& solution) const override {
    return route_prize(cast(instance), solution.items());
  }
  bool feasible(const Instance& instance, const Solution& solution) const override {
    return op::feasible(cast(instance), solution);
  }
  double violation(const Instance& instance, const Solution& solution) const override {
    return op::violation(cast(instance), solution);
  }
  Solution repair(const Instance& instance, const Solution& solution) const override {
    if (op::feasible(cast(instance), solution)) return solution;
    return Solution::flat(repair_route(cast(instance), solution.items()));
  }
  // Deletions (repair only deletes) + 1 for fixing the list count; alpha = 1 (see the top).
  double repair_distance(const Instance&, const Solution& repaired, const Solution& original) const override {
    return insert_delete_distance(original.items(), repaired.items()) + (original.lists.size() == repaired.lists.size() ? 0 : 1);
  }
  std::unique_ptr<SemanticConstraint> semantic_constraint(std::shared_ptr<const Instance> instance) const override {
    return make_op_constraint(std::move(instance));
  }
  Picture picture(const Instance& instance, const Solution& solution, const Solution* raw) const override {
    const OpInstance& o = cast(instance);
    const auto route = [&o](const Solution& s) {
      std::vector<int> path = {o.start};
      for (int v : in_range(s.items(), o.geometry.n)) path.push_back(v);
      path.push_back(o.end);
      return std::vector<std::vector<int>>{path};
    };
    // Node area grows with its prize, so the picture shows what the route collects.
    const double top = o.prizes.empty() ? 1.0 : std::max(1e-12, *std::max_element(o.prizes.begin(), o.prizes.end()));
    std::vector<double> radius;
    for (double p : o.prizes) radius.push_back(2 + 5 * std::sqrt(std::max(0.0, p) / top));
    RouteMap map;
    map.coords = o.geometry.coords;
    map.depots = {o.start, o.end};
    map.depot_label = o.start == o.end ? "depot" : "start, end";
    map.radius = std::move(radius);
    map.route_label = "route";
    map.paths = route(solution);
    if (raw != nullptr) mark_route_repair(map, route(*raw), *raw, solution);
    return map;
  }

  const std::vector<FieldSpec>& instance_fields() const override {
    static const std::vector<FieldSpec> fields = {kCoordsField,
                                                  {"prizes", FieldKind::kRealArray, "n prizes, by node (the depot's is 0)"},
                                                  {"budget", FieldKind::kReal, "maximum route length"},
                                                  {"start", FieldKind::kInt, "start node"},
                                                  {"end", FieldKind::kInt, "end node"}};
    return fields;
  }
  InstanceData encode_instance(const Instance& instance) const override {
    const OpInstance& o = cast(instance);
    InstanceData d;
    d.real_arrays["coords"] = encode_coords(o.geometry, "op instance '" + instance.name + "'");
    d.real_arrays["prizes"] = o.prizes;
    d.reals["budget"] = o.budget;
    d.ints["start"] = o.start;
    d.ints["end"] = o.end;
    return d;
  }
  std::shared_ptr<Instance> decode_instance(const InstanceData& data, int n, const std::string& name,
                                            const std::string& where) const override {
    auto o = std::make_shared<OpInstance>();
    o->geometry = decode_coords(data, n, where);
    o->prizes = required_field(data.real_arrays, "prizes", where);
    expect_length(o->prizes.size(), n, "prizes", where);
    o->budget = required_field(data.reals, "budget", where);
    o->start = int_field(data, "start", where);
    o->end = int_field(data, "end", where);
    o->name = name;
    validated(where, [&] { op::validate(*o); });
    return o;
  }

 private:
  static const OpInstance& cast(const Instance& i) { return instance_as<OpInstance>(i, "op"); }
};

}  // namespace

const Problem& problem() {
  static const OpProblem instance;
  return instance;
}

}  // namespace falcon::problems::op
