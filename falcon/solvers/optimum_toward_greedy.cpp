#include "falcon/solvers/optimum_toward_greedy.h"

#include <algorithm>
#include <optional>
#include <string>

#include "falcon/core/error.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/solvers/mis_branch_and_bound.h"
#include "falcon/solvers/mis_reductions.h"
#include "falcon/solvers/mis_reference.h"

namespace falcon::solvers {
namespace {

using problems::Graph;
namespace mis_mvc = problems::mis_mvc;

// An independent set of at least `need` vertices among `vertices` (ascending) that holds
// `incumbent` (independent, within `vertices`) when none larger exists; empty when the search
// finds none within its work (or `need` cannot be met).
std::vector<int> independent_set_of_at_least(const Graph& g, const std::vector<int>& vertices,
                                             const std::vector<int>& incumbent, int need) {
  if (static_cast<int>(incumbent.size()) >= need) return incumbent;
  if (static_cast<int>(vertices.size()) < need) return {};
  std::vector<int> index(static_cast<std::size_t>(g.n), -1);
  for (std::size_t i = 0; i < vertices.size(); ++i) index[vertices[i]] = static_cast<int>(i);
  std::vector<int> local;
  for (int v : incumbent) local.push_back(index[v]);
  MisBranchAndBoundOptions options;
  options.max_work = kTowardGreedyCheckWork;
  const MisBranchAndBoundResult found = mis_branch_and_bound(induced_subgraph(g, vertices), local, options);
  if (static_cast<int>(found.set.size()) < need) return {};
  std::vector<int> set;
  for (int i : found.set) set.push_back(vertices[i]);
  return set;
}

std::vector<char> membership(const Graph& g, const std::vector<int>& items) {
  std::vector<char> in(static_cast<std::size_t>(g.n), 0);
  for (int v : items) {
    if (v < 0 || v >= g.n)
      throw Error("toward greedy: vertex " + std::to_string(v) + " outside 0.." + std::to_string(g.n - 1));
    in[v] = 1;
  }
  return in;
}

// The first edge with both ends in (`both`) or neither end in (!`both`) the set, as "u-v".
std::optional<std::string> offending_edge(const Graph& g, const std::vector<char>& in, bool both) {
  for (const auto& [u, v] : g.edges)
    if (both ? (in[u] && in[v]) : (!in[u] && !in[v])) return std::to_string(u) + "-" + std::to_string(v);
  return std::nullopt;
}

std::vector<int> members(const std::vector<char>& in) {
  std::vector<int> out;
  for (int v = 0; v < static_cast<int>(in.size()); ++v)
    if (in[v]) out.push_back(v);
  return out;
}

// The walk of mis_set_toward_greedy, its choices at each step in `preference`'s order.
using Preference = std::vector<int> (*)(const Graph& g, const mis_mvc::GreedyState& state);

std::vector<int> mis_set_toward(const Graph& g, const std::vector<int>& set, Preference preference) {
  std::vector<char> in_set = membership(g, set);
  if (const auto edge = offending_edge(g, in_set, true))
    throw Error("toward greedy: the set is not independent (edge " + *edge + "); pass an independent set");
  std::vector<char> free(static_cast<std::size_t>(g.n), 1), taken(static_cast<std::size_t>(g.n), 0);
  int taken_count = 0;
  const auto state = mis_mvc::min_degree_free(g);
  for (;;) {
    const std::vector<int> note = preference(g, *state);
    if (note.empty()) break;
    const int size = static_cast<int>(members(in_set).size());
    int pick = -1;
    for (int v : note) {
      if (in_set[v]) {  // the set's own best-ranked vertex: always an answer
        pick = v;
        break;
      }
      // Is there a set as large holding the vertices taken so far and v? Its other vertices lie
      // among the free ones that v does not rule out.
      std::vector<char> allowed = free;
      allowed[v] = 0;
      for (int w : g.neighbors(v)) allowed[w] = 0;
      std::vector<int> rest = members(allowed), incumbent;
      for (int w : rest)
        if (in_set[w] && !taken[w]) incumbent.push_back(w);
      const std::vector<int> found = independent_set_of_at_least(g, rest, incumbent, size - taken_count - 1);
      if (found.empty() && size - taken_count - 1 > 0) continue;
      std::fill(in_set.begin(), in_set.end(), 0);
      for (int w = 0; w < g.n; ++w) in_set[w] = taken[w];
      in_set[v] = 1;
      for (int w : found) in_set[w] = 1;
      pick = v;
      break;
    }
    if (pick < 0) throw Error("toward greedy: internal error: the set has no free vertex left to take");
    taken[pick] = 1;
    ++taken_count;
    free[pick] = 0;
    for (int w : g.neighbors(pick)) free[w] = 0;
    state->take(pick);
  }
  return members(in_set);
}

// The walk of mvc_cover_toward_greedy, its choices at each step in `preference`'s order.
std::vector<int> mvc_cover_toward(const Graph& g, const std::vector<int>& cover, Preference preference) {
  std::vector<char> in_cover = membership(g, cover);
  if (const auto edge = offending_edge(g, in_cover, false))
    throw Error("toward greedy: the set is not a vertex cover (edge " + *edge + " uncovered); pass a cover");
  std::vector<char> taken(static_cast<std::size_t>(g.n), 0);
  const auto state = mis_mvc::max_degree_uncovered(g);
  for (;;) {
    const std::vector<int> note = preference(g, *state);
    if (note.empty()) break;  // every edge covered by the vertices taken
    int pick = -1;
    for (int v : note) {
      if (in_cover[v]) {
        pick = v;
        break;
      }
      // Is there a cover as small holding the vertices taken so far and v? Its complement is an
      // independent set as large as the current one that avoids them all.
      std::vector<int> rest, incumbent;
      for (int w = 0; w < g.n; ++w) {
        if (taken[w] || w == v) continue;
        rest.push_back(w);
        if (!in_cover[w]) incumbent.push_back(w);
      }
      const int independent = g.n - static_cast<int>(members(in_cover).size());
      const std::vector<int> found = independent_set_of_at_least(g, rest, incumbent, independent);
      if (found.empty()) continue;
      std::fill(in_cover.begin(), in_cover.end(), 1);
      for (int w : found) in_cover[w] = 0;
      pick = v;
      break;
    }
    if (pick < 0) throw Error("toward greedy: internal error: an uncovered edge has no end in the cover");
    taken[pick] = 1;
    state->take(pick);
  }
  return members(in_cover);
}

}  // namespace

std::vector<int> mis_set_toward_greedy(const Graph& g, const std::vector<int>& set) {
  return mis_set_toward(g, set, &mis_mvc::ranked_note);
}

std::vector<int> mis_set_toward_two_hop(const Graph& g, const std::vector<int>& set) {
  return mis_set_toward(g, set, &mis_mvc::two_hop_preference);
}

std::vector<int> mvc_cover_toward_greedy(const Graph& g, const std::vector<int>& cover) {
  return mvc_cover_toward(g, cover, &mis_mvc::ranked_note);
}

std::vector<int> mvc_cover_toward_two_hop(const Graph& g, const std::vector<int>& cover) {
  return mvc_cover_toward(g, cover, &mis_mvc::two_hop_preference);
}

problems::Solution mis_reference_toward_greedy(const problems::Instance& instance, const SolveOptions& options) {
  const Graph& g = problems::instance_as<problems::GraphInstance>(instance, "mis").graph;
  return problems::Solution::flat(mis_set_toward_greedy(g, mis_reference_solve(instance, options).items()));
}

problems::Solution mis_reference_toward_two_hop(const problems::Instance& instance, const SolveOptions& options) {
  const Graph& g = problems::instance_as<problems::GraphInstance>(instance, "mis").graph;
  return problems::Solution::flat(mis_set_toward_two_hop(g, mis_reference_solve(instance, options).items()));
}

problems::Solution mvc_reference_toward_greedy(const problems::Instance& instance, const SolveOptions& options) {
  const Graph& g = problems::instance_as<problems::GraphInstance>(instance, "mvc").graph;
  return problems::Solution::flat(mvc_cover_toward_greedy(g, mvc_reference_solve(instance, options).items()));
}

problems::Solution mvc_reference_toward_two_hop(const problems::Instance& instance, const SolveOptions& options) {
  const Graph& g = problems::instance_as<problems::GraphInstance>(instance, "mvc").graph;
  return problems::Solution::flat(mvc_cover_toward_two_hop(g, mvc_reference_solve(instance, options).items()));
}

}  // namespace falcon::solvers
