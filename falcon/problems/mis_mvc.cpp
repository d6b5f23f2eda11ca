#include "falcon/problems/mis_mvc.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <queue>
#include <tuple>
#include <utility>

#include "falcon/core/error.h"
#include "falcon/problems/compact_text.h"
#include "falcon/problems/list_ops.h"
#include "falcon/problems/params.h"

namespace falcon::problems {
namespace mis_mvc {

std::shared_ptr<GraphInstance> generate(const GenerateOptions& options, std::uint64_t seed, std::string_view problem) {
  const std::string who(problem);
  ParamReader params(options, who);
  const std::string distribution = options.distribution.empty() ? "er" : options.distribution;
  if (options.n < 1) throw Error(who + " generator: n must be at least 1 (got " + std::to_string(options.n) + ")");
  Rng rng(seed);
  auto instance = std::make_shared<GraphInstance>();
  if (distribution == "er") {
    const double p = params.get_double("p", 0.15);
    params.finish();
    if (!(p >= 0.0 && p <= 1.0)) throw Error(who + " generator: p must be in [0, 1] (got " + std::to_string(p) + ")");
    instance->graph = erdos_renyi(options.n, p, rng);
  } else if (distribution == "ba") {
    const int m = params.get_int("m", 4);
    params.finish();
    if (m < 1 || m >= options.n) {
      throw Error(who + " generator: ba needs 1 <= m < n (got m=" + std::to_string(m) + ", n=" + std::to_string(options.n) + ")");
    }
    instance->graph = barabasi_albert(options.n, m, rng);
  } else {
    throw Error(who + " generator: unknown distribution '" + distribution + "' (known: er, ba)");
  }
  instance->name = who + "-n" + std::to_string(options.n) + "-s" + std::to_string(seed);
  return instance;
}

// Most edges a clique file's complement may have: above the largest DIMACS clique benchmark's
// (C4000.5, 4.0 million). A sparse .clq file of n vertices has a complement of about n^2/2
// edges, so a few bytes of header could otherwise ask for minutes and gigabytes.
constexpr long long kMaxComplementEdges = 5000000;

std::shared_ptr<GraphInstance> read_file(const std::string& path) {
  const std::filesystem::path p(path);
  auto instance = std::make_shared<GraphInstance>();
  instance->graph = read_dimacs_graph(path);
  if (p.extension() == ".clq") {  // clique instance
    const long long n = instance->graph.n;
    const long long complement_edges = n * (n - 1) / 2 - instance->graph.m();
    if (complement_edges > kMaxComplementEdges) {
      throw Error(path + ": a .clq file is read as a clique instance, so MIS and MVC solve its complement, which would have " +
                  std::to_string(complement_edges) + " edges (" + std::to_string(n) + " vertices, " +
                  std::to_string(instance->graph.m()) + " edges in the file); the limit is " +
                  std::to_string(kMaxComplementEdges) + ". To solve the graph as written, copy it to a .mis file.");
    }
    instance->graph = complement(instance->graph);
  }
  instance->name = p.stem().string();
  return instance;
}

// One clause per vertex with its higher-numbered neighbours ("0:1,3 2:4"), so each edge is
// written once; vertices without such neighbours are left out. Measured 37-42% shorter than an
// "u-v" edge list (experiments/prompt_lengths).
std::string prompt(const GraphInstance& instance, std::string_view tag) {
  const Graph& g = instance.graph;
  std::string out = std::string(tag) + " n=" + std::to_string(instance.size()) + ":";
  for (int u = 0; u < g.n; ++u) {
    char sep = ':';
    bool any = false;
    for (int v : g.neighbors(u)) {
      if (v <= u) continue;
      if (!any) out += ' ' + std::to_string(u);
      out += sep;
      out += std::to_string(v);
      sep = ',';
      any = true;
    }
  }
  return out;
}

std::string compact_prompt(const GraphInstance& instance, std::string_view tag, bool upper_only, bool with_degree) {
  // "MIS:#0:#3#7;#1;#2:#5;" — every vertex with all its neighbours' IDs, so that each edge is
  // written twice and "may v join?" is a look at v's own clause. The echo's notes carry the
  // lower ends' half, so its prompt needs only the upper one: about 2/3 of the tokens at n = 50.
  const Graph& g = instance.graph;
  std::string out = std::string(tag) + ":";
  for (int v = 0; v < g.n; ++v) {
    std::vector<int> listed;
    for (int w : g.neighbors(v))
      if (!upper_only || w > v) listed.push_back(w);
    std::vector<double> numbers;
    if (with_degree) numbers.push_back(g.degree(v));
    out += compact_clause(v, numbers, listed);
  }
  return out;
}

SymmetricCopy symmetric_copy(const GraphInstance& instance, const Solution& set, Rng& rng) {
  const std::vector<int> relabel = random_relabelling(instance.size(), {}, rng);
  std::vector<std::pair<int, int>> edges;
  for (const auto& [u, v] : instance.graph.edges) edges.emplace_back(relabel[u], relabel[v]);
  auto copy = std::make_shared<GraphInstance>();
  copy->graph = Graph::from_edges(instance.size(), std::move(edges));
  copy->name = instance.name + "~";
  Solution moved = relabelled(set, relabel);
  for (auto& list : moved.lists) std::sort(list.begin(), list.end());  // a set is written ascending
  return {copy, moved, relabel, {}};
}

int set_size(const Graph& g, const std::vector<int>& items) {
  return static_cast<int>(deduplicate(items, 0, g.n - 1).kept.size());
}

namespace {
bool valid_id(int v, int n) { return v >= 0 && v < n; }
}  // namespace

EchoNotes mis_echo_notes(const GraphInstance& instance, const Solution& set) {
  const Graph& g = instance.graph;
  std::vector<std::string> notes;
  for (int v : set.items()) {
    std::vector<int> above;
    if (valid_id(v, g.n))
      for (int w : g.neighbors(v)) if (w > v) above.push_back(w);
    notes.push_back(id_list_text(above));
  }
  return {notes};
}

EchoNotes mis_state_notes(const GraphInstance& instance, const Solution& set) {
  const Graph& g = instance.graph;
  std::vector<char> taken(g.n, 0);  // written, or adjacent to a written vertex
  std::vector<std::string> notes;
  int after = -1;  // the last valid vertex
  for (int v : set.items()) {
    if (valid_id(v, g.n)) {
      taken[v] = 1;
      for (int w : g.neighbors(v)) taken[w] = 1;
      after = v;
    }
    std::vector<int> free;
    for (int w = after + 1; w < g.n; ++w)
      if (!taken[w]) free.push_back(w);
    notes.push_back(id_list_text(free));
  }
  return {notes};
}

namespace {

class MinDegreeFree final : public GreedyState {
 public:
  explicit MinDegreeFree(const Graph& g) : g_(g), taken_(g.n, 0) {}
  std::optional<int> key(int v) const override {
    if (taken_[v]) return std::nullopt;
    int free = 0;
    for (int w : g_.neighbors(v)) free += !taken_[w];
    return free;
  }
  void take(int v) override {
    taken_[v] = 1;
    for (int w : g_.neighbors(v)) taken_[w] = 1;
  }

 private:
  const Graph& g_;
  std::vector<char> taken_;
};

class MaxDegreeUncovered final : public GreedyState {
 public:
  explicit MaxDegreeUncovered(const Graph& g) : g_(g), in_cover_(g.n, 0) {}
  std::optional<int> key(int v) const override {
    if (in_cover_[v]) return std::nullopt;
    int uncovered = 0;
    for (int w : g_.neighbors(v)) uncovered += !in_cover_[w];
    return uncovered > 0 ? std::optional<int>(-uncovered) : std::nullopt;
  }
  void take(int v) override { in_cover_[v] = 1; }

 private:
  const Graph& g_;
  std::vector<char> in_cover_;
};

// Every vertex with a key, as (key, ID), smallest key first (ties: smallest ID).
std::vector<std::pair<int, int>> keyed_vertices(const Graph& g, const GreedyState& state) {
  std::vector<std::pair<int, int>> keyed;
  for (int w = 0; w < g.n; ++w)
    if (const auto k = state.key(w)) keyed.emplace_back(*k, w);
  std::sort(keyed.begin(), keyed.end());
  return keyed;
}

// The ranked note with each run of equal keys opened by its count: "1:#30#12 2:#15".
std::string keyed_note_text(const Graph& g, const GreedyState& state) {
  std::string text;
  std::optional<int> run;  // the key of the run being written
  for (const auto& [key, w] : keyed_vertices(g, state)) {
    if (key != run) {
      if (run) text += ' ';
      text += std::to_string(std::abs(key)) + ':';  // MVC's key is minus its count
      run = key;
    }
    text += '#' + std::to_string(w);
  }
  return text;
}

// After each vertex of the set (taken; an ID out of range changes nothing), every vertex with a
// key, smallest key first (ties: smallest ID); `keyed`: with each run of ties' count before it.
EchoNotes ranked_notes(const Graph& g, const Solution& set, GreedyState& state, bool keyed) {
  std::vector<std::string> notes;
  for (int v : set.items()) {
    if (valid_id(v, g.n)) state.take(v);
    notes.push_back(keyed ? keyed_note_text(g, state) : id_list_text(ranked_note(g, state)));
  }
  return {notes};
}

// The set's vertices in the order the greedy held to the set takes them (each time the member of
// smallest key, ties: smallest ID, or with `two_hop` first the smallest two_hop_key); the members
// it never takes follow by ID, then IDs out of range and repeats as they came. A solution of more
// than one list comes back as it is.
Solution ranked_order(const Graph& g, const Solution& set, GreedyState& state, bool two_hop = false) {
  if (set.lists.size() != 1) return set;  // not a set's shape: written as it came
  std::vector<char> in_set(g.n, 0), placed(g.n, 0);
  std::vector<int> rest;  // IDs out of range and repeats, as they came
  for (int v : set.items()) {
    if (valid_id(v, g.n) && !in_set[v]) {
      in_set[v] = 1;
    } else {
      rest.push_back(v);
    }
  }
  std::vector<int> order;
  for (;;) {
    int best = -1;
    std::pair<int, int> best_key;  // (key, two-hop key)
    for (int v = 0; v < g.n; ++v) {
      if (!in_set[v] || placed[v]) continue;
      const auto k = state.key(v);
      if (!k) continue;
      const std::pair<int, int> key{*k, two_hop ? two_hop_key(g, state, v) : 0};
      if (best < 0 || key < best_key) best = v, best_key = key;
    }
    if (best < 0) break;
    placed[best] = 1;
    order.push_back(best);
    state.take(best);
  }
  for (int v = 0; v < g.n; ++v)
    if (in_set[v] && !placed[v]) order.push_back(v);
  order.insert(order.end(), rest.begin(), rest.end());
  return Solution::flat(order);
}

}  // namespace

std::unique_ptr<GreedyState> min_degree_free(const Graph& g) { return std::make_unique<MinDegreeFree>(g); }

std::unique_ptr<GreedyState> max_degree_uncovered(const Graph& g) { return std::make_unique<MaxDegreeUncovered>(g); }

int two_hop_key(const Graph& g, const GreedyState& state, int v) {
  int sum = 0;
  for (int w : g.neighbors(v))
    if (const auto k = state.key(w)) sum += *k;
  return -sum;
}

std::vector<int> two_hop_preference(const Graph& g, const GreedyState& state) {
  std::vector<std::tuple<int, int, int>> keyed;  // (key, two-hop key, ID)
  for (const auto& [k, w] : keyed_vertices(g, state)) keyed.emplace_back(k, two_hop_key(g, state, w), w);
  std::sort(keyed.begin(), keyed.end());
  std::vector<int> preferred;
  preferred.reserve(keyed.size());
  for (const auto& [k, t, w] : keyed) preferred.push_back(w);
  return preferred;
}

std::vector<int> ranked_note(const Graph& g, const GreedyState& state) {
  std::vector<int> ranked;
  for (const auto& [k, w] : keyed_vertices(g, state)) ranked.push_back(w);
  return ranked;
}

EchoNotes mis_ranked_notes(const GraphInstance& instance, const Solution& set) {
  MinDegreeFree state(instance.graph);
  return ranked_notes(instance.graph, set, state, /*keyed=*/false);
}

EchoNotes mis_keyed_notes(const GraphInstance& instance, const Solution& set) {
  MinDegreeFree state(instance.graph);
  return ranked_notes(instance.graph, set, state, /*keyed=*/true);
}

Solution mis_ranked_order(const GraphInstance& instance, const Solution& set) {
  MinDegreeFree state(instance.graph);
  return ranked_order(instance.graph, set, state);
}

EchoNotes mvc_ranked_notes(const GraphInstance& instance, const Solution& set) {
  MaxDegreeUncovered state(instance.graph);
  return ranked_notes(instance.graph, set, state, /*keyed=*/false);
}

EchoNotes mvc_keyed_notes(const GraphInstance& instance, const Solution& set) {
  MaxDegreeUncovered state(instance.graph);
  return ranked_notes(instance.graph, set, state, /*keyed=*/true);
}

Solution mis_keyed_order(const GraphInstance& instance, const Solution& set) {
  MinDegreeFree state(instance.graph);
  return ranked_order(instance.graph, set, state, /*two_hop=*/true);
}

Solution mvc_ranked_order(const GraphInstance& instance, const Solution& set) {
  MaxDegreeUncovered state(instance.graph);
  return ranked_order(instance.graph, set, state);
}

Solution mvc_keyed_order(const GraphInstance& instance, const Solution& set) {
  MaxDegreeUncovered state(instance.graph);
  return ranked_order(instance.graph, set, state, /*two_hop=*/true);
}

EchoNotes mvc_state_notes(const GraphInstance& instance, const Solution& set) {
  const Graph& g = instance.graph;
  std::vector<char> written(g.n, 0);
  std::vector<char> forced(g.n, 0);  // a neighbour of a vertex skipped so far
  std::vector<std::string> notes;
  int passed = -1;  // every vertex up to here is written or skipped
  for (int v : set.items()) {
    if (valid_id(v, g.n)) {
      written[v] = 1;
      for (int skipped = passed + 1; skipped < v; ++skipped)
        if (!written[skipped])
          for (int w : g.neighbors(skipped)) forced[w] = 1;
      passed = std::max(passed, v);
    }
    std::vector<int> due;
    for (int w = passed + 1; w < g.n; ++w)
      if (forced[w]) due.push_back(w);
    notes.push_back(id_list_text(due));
  }
  return {notes};
}

EchoNotes mvc_echo_notes(const GraphInstance& instance, const Solution& set) {
  const Graph& g = instance.graph;
  std::vector<std::string> notes;
  int previous = -1;  // the last vertex written: the skipped ones lie between it and the next
  for (int v : set.items()) {
    std::vector<int> forced;
    if (valid_id(v, g.n)) {
      for (int skipped = previous + 1; skipped < v; ++skipped)
        for (int w : g.neighbors(skipped)) if (w > v) forced.push_back(w);
      previous = std::max(previous, v);
    }
    std::sort(forced.begin(), forced.end());
    forced.erase(std::unique(forced.begin(), forced.end()), forced.end());
    notes.push_back(id_list_text(forced));
  }
  return {notes};
}

int multiset_symmetric_difference(std::vector<int> a, std::vector<int> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::size_t i = 0, j = 0, common = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      ++common, ++i, ++j;
    }
  }
  return static_cast<int>(a.size() + b.size() - 2 * common);
}

namespace {

// Shared by the two adapters: same instance, text, grammar, objective and distance.
class GraphProblem : public Problem {
 public:
  GraphProblem(std::string_view name, Sense sense)
      : Problem(name, sense, 1.0,
                {"Set", /*nested=*/false, /*allow_empty=*/true, 0, 0, std::string(name), /*index_prefix=*/"", /*echo=*/false}) {}
  std::shared_ptr<Instance> generate(const GenerateOptions& options, std::uint64_t seed) const override {
    return mis_mvc::generate(options, seed, name());
  }
  std::shared_ptr<Instance> read_file(const std::string& path) const override { return mis_mvc::read_file(path); }
  std::string prompt(const Instance& instance) const override { return mis_mvc::prompt(cast(instance), tag()); }
  SymmetricCopy symmetric_copy(const Instance& instance, const Solution& solution, Rng& rng) const override {
    return mis_mvc::symmetric_copy(cast(instance), solution, rng);
  }
  double objective(const Instance& instance, const Solution& solution) const override {
    return set_size(cast(instance).graph, solution.items());
  }
  // Removed + added ids (+1 for fixing the list count). Each removal (MIS) resolves at least
  // one conflicting edge and each addition (MVC) covers at least one edge, so alpha = 1.
  double repair_distance(const Instance&, const Solution& repaired, const Solution& original) const override {
    return multiset_symmetric_difference(original.items(), repaired.items()) +
           (original.lists.size() == repaired.lists.size() ? 0 : 1);
  }

  const std::vector<FieldSpec>& instance_fields() const override {
    static const std::vector<FieldSpec> fields = {
        {"edges", FieldKind::kIntArray, "u0, v0, u1, v1, ...: the m edges, u < v, sorted"}};
    return fields;
  }
  InstanceData encode_instance(const Instance& instance) const override {
    const Graph& g = cast(instance).graph;
    InstanceData d;
    auto& edges = d.int_arrays["edges"];
    edges.reserve(2 * g.edges.size());
    for (const auto& [u, v] : g.edges) {
      edges.push_back(u);
      edges.push_back(v);
    }
    return d;
  }
  std::shared_ptr<Instance> decode_instance(const InstanceData& data, int n, const std::string& name,
                                            const std::string& where) const override {
    const auto& flat = required_field(data.int_arrays, "edges", where);
    if (flat.size() % 2 != 0) throw Error(where + ": instance field 'edges' has an odd number of values");
    std::vector<std::pair<int, int>> edges;
    edges.reserve(flat.size() / 2);
    for (std::size_t i = 0; i < flat.size(); i += 2) edges.emplace_back(flat[i], flat[i + 1]);
    auto g = std::make_shared<GraphInstance>();
    validated(where, [&] { g->graph = Graph::from_edges(n, std::move(edges)); });
    if (static_cast<std::size_t>(g->graph.m()) * 2 != flat.size()) throw Error(where + ": instance field 'edges' repeats an edge");
    g->name = name;
    return g;
  }

 protected:
  const GraphInstance& cast(const Instance& i) const { return instance_as<GraphInstance>(i, name()); }
  std::string tag() const {  // "MIS", "MVC": the prompts' first word
    std::string t(name());
    for (char& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return t;
  }

  // The graph with the chosen set; `independent`: MIS (else MVC) decides which edges break the rule.
  GraphSet graph_picture(const Instance& instance, const Solution& solution, const Solution* raw,
                         bool independent) const {
    const Graph& g = cast(instance).graph;
    GraphSet picture;
    picture.n = g.n;
    picture.edges = g.edges;
    picture.independent = independent;
    picture.chosen = in_range(solution.items(), g.n);
    std::sort(picture.chosen.begin(), picture.chosen.end());
    picture.chosen.erase(std::unique(picture.chosen.begin(), picture.chosen.end()), picture.chosen.end());
    if (raw != nullptr) {
      picture.shows_repair = true;
      picture.added_by_repair = in_range(items_missing_from(solution, *raw), g.n);
      picture.dropped_by_repair = in_range(items_missing_from(*raw, solution), g.n);
    }
    return picture;
  }
};

// Max-heap entry (key, tie) -> vertex; entries go stale when a key drops and are re-pushed
// with the current key when they reach the top. Keys only decrease, so an entry that is
// current when on top is the true maximum.
struct HeapEntry {
  int key;
  int tie;  // larger wins among equal keys
  int vertex;
  bool operator<(const HeapEntry& o) const { return key != o.key ? key < o.key : tie < o.tie; }
};

}  // namespace
}  // namespace mis_mvc

namespace mis {

int conflicting_edges(const Graph& g, const std::vector<int>& items) {
  const std::vector<int> kept = deduplicate(items, 0, g.n - 1).kept;
  std::vector<char> in(static_cast<std::size_t>(g.n), 0);
  for (int v : kept) in[v] = 1;
  long twice = 0;
  for (int v : kept) {
    for (int w : g.neighbors(v)) twice += in[w];
  }
  return static_cast<int>(twice / 2);
}

double violation(const GraphInstance& instance, const Solution& solution) {
  const Deduplicated d = deduplicate(solution.items(), 0, instance.size() - 1);
  return d.invalid + d.duplicates + conflicting_edges(instance.graph, d.kept) + (solution.lists.size() == 1 ? 0 : 1);
}

bool feasible(const GraphInstance& instance, const Solution& solution) { return violation(instance, solution) == 0; }

std::vector<int> repair_set(const Graph& g, const std::vector<int>& items) {
  const std::vector<int> kept = deduplicate(items, 0, g.n - 1).kept;
  std::vector<int> position(static_cast<std::size_t>(g.n), -1);
  for (std::size_t i = 0; i < kept.size(); ++i) position[kept[i]] = static_cast<int>(i);
  std::vector<int> degree(static_cast<std::size_t>(g.n), 0);  // neighbours in the current set
  std::priority_queue<mis_mvc::HeapEntry> heap;
  for (int v : kept) {
    for (int w : g.neighbors(v)) degree[v] += position[w] >= 0;
    if (degree[v] > 0) heap.push({degree[v], position[v], v});
  }
  while (!heap.empty()) {
    const mis_mvc::HeapEntry top = heap.top();
    heap.pop();
    const int v = top.vertex;
    if (position[v] < 0 || degree[v] == 0) continue;  // removed, or its conflicts already resolved
    if (top.key != degree[v]) {
      heap.push({degree[v], top.tie, v});
      continue;
    }
    position[v] = -1;
    for (int w : g.neighbors(v)) degree[w] -= position[w] >= 0;
  }
  std::vector<int> out;
  for (int v : kept) {
    if (position[v] >= 0) out.push_back(v);
  }
  return out;
}

namespace {

class MisProblem final : public mis_mvc::GraphProblem {
 public:
  MisProblem() : GraphProblem("mis", Sense::kMaximize) {}
  Picture picture(const Instance& instance, const Solution& solution, const Solution* raw) const override {
    return graph_picture(instance, solution, raw, /*independent=*/true);
  }
  std::unique_ptr<SemanticConstraint> semantic_constraint(std::shared_ptr<const Instance> instance) const override {
    return make_mis_constraint(std::move(instance));
  }
  bool feasible(const Instance& instance, const Solution& solution) const override {
    return mis::feasible(cast(instance), solution);
  }
  double violation(const Instance& instance, const Solution& solution) const override {
    return mis::violation(cast(instance), solution);
  }
  Solution repair(const Instance& instance, const Solution& solution) const override {
    if (mis::feasible(cast(instance), solution)) return solution;
    return Solution::flat(repair_set(cast(instance).graph, solution.items()));
  }
};

}  // namespace

const Problem& problem() {
  static const MisProblem instance;
  return instance;
}

}  // namespace mis

namespace mvc {

int uncovered_edges(const Graph& g, const std::vector<int>& items) {
  std::vector<char> in(static_cast<std::size_t>(g.n), 0);
  for (int v : items) {
    if (v >= 0 && v < g.n) in[v] = 1;
  }
  int count = 0;
  for (const auto& [u, v] : g.edges) count += !in[u] && !in[v];
  return count;
}

double violation(const GraphInstance& instance, const Solution& solution) {
  const Deduplicated d = deduplicate(solution.items(), 0, instance.size() - 1);
  return d.invalid + d.duplicates + uncovered_edges(instance.graph, d.kept) + (solution.lists.size() == 1 ? 0 : 1);
}

bool feasible(const GraphInstance& instance, const Solution& solution) { return violation(instance, solution) == 0; }

std::vector<int> repair_set(const Graph& g, const std::vector<int>& items) {
  std::vector<int> out = deduplicate(items, 0, g.n - 1).kept;
  std::vector<char> in(static_cast<std::size_t>(g.n), 0);
  for (int v : out) in[v] = 1;
  std::vector<int> degree(static_cast<std::size_t>(g.n), 0);  // uncovered edges at v (v outside the set)
  std::priority_queue<mis_mvc::HeapEntry> heap;
  for (int v = 0; v < g.n; ++v) {
    if (in[v]) continue;
    for (int w : g.neighbors(v)) degree[v] += !in[w];
    if (degree[v] > 0) heap.push({degree[v], -v, v});  // tie: smallest id first
  }
  std::vector<int> added;
  while (!heap.empty()) {
    const mis_mvc::HeapEntry top = heap.top();
    heap.pop();
    const int v = top.vertex;
    if (in[v] || degree[v] == 0) continue;
    if (top.key != degree[v]) {
      heap.push({degree[v], top.tie, v});
      continue;
    }
    in[v] = 1;
    added.push_back(v);
    for (int w : g.neighbors(v)) degree[w] -= !in[w];
  }
  std::sort(added.begin(), added.end());
  out.insert(out.end(), added.begin(), added.end());
  return out;
}

namespace {

class MvcProblem final : public mis_mvc::GraphProblem {
 public:
  MvcProblem() : GraphProblem("mvc", Sense::kMinimize) {}
  Picture picture(const Instance& instance, const Solution& solution, const Solution* raw) const override {
    return graph_picture(instance, solution, raw, /*independent=*/false);
  }
  std::unique_ptr<SemanticConstraint> semantic_constraint(std::shared_ptr<const Instance> instance) const override {
    return make_mvc_constraint(std::move(instance));
  }
  bool feasible(const Instance& instance, const Solution& solution) const override {
    return mvc::feasible(cast(instance), solution);
  }
  double violation(const Instance& instance, const Solution& solution) const override {
    return mvc::violation(cast(instance), solution);
  }
  Solution repair(const Instance& instance, const Solution& solution) const override {
    if (mvc::feasible(cast(instance), solution)) return solution;
    return Solution::flat(repair_set(cast(instance).graph, solution.items()));
  }
};

}  // namespace

const Problem& problem() {
  static const MvcProblem instance;
  return instance;
}

}  // namespace mvc
}  // namespace falcon::problems
