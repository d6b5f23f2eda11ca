#include "falcon/solvers/mis_reference.h"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "falcon/core/rng.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/solvers/graph_heuristics.h"
#include "falcon/solvers/mis_branch_and_bound.h"
#include "falcon/solvers/mis_local_search.h"
#include "falcon/solvers/mis_phased_search.h"
#include "falcon/solvers/mis_reductions.h"

namespace falcon::solvers {
namespace {

using Clock = std::chrono::steady_clock;
using problems::Graph;

MisKernel identity_kernel(const Graph& g) {
  MisKernel kernel;
  kernel.graph = g;
  kernel.input_n = kernel.extended_n = g.n;
  kernel.extended_of.resize(static_cast<std::size_t>(g.n));
  std::iota(kernel.extended_of.begin(), kernel.extended_of.end(), 0);
  return kernel;
}

// The best independent set of the kernel, kept per connected component: components are
// independent subproblems, so each one keeps whichever phase found more in it.
class ComponentBest {
 public:
  ComponentBest(const Graph& g, std::vector<int> initial) : g_(g), components_(connected_components(g)) {
    in_.assign(static_cast<std::size_t>(g.n), 0);
    for (int v : initial) in_[v] = 1;
    proven_.assign(components_.size(), 0);
  }

  int count() const { return static_cast<int>(components_.size()); }
  int size(int c) const { return static_cast<int>(components_[c].size()); }
  bool proven(int c) const { return proven_[c]; }
  bool all_proven() const { return std::all_of(proven_.begin(), proven_.end(), [](char p) { return p != 0; }); }

  // Local ids (positions in the component's sorted vertex list) of the set's members in c.
  std::vector<int> local_part(int c, const std::vector<char>& in) const {
    std::vector<int> part;
    for (std::size_t i = 0; i < components_[c].size(); ++i) {
      if (in[components_[c][i]]) part.push_back(static_cast<int>(i));
    }
    return part;
  }

  // Takes `local_set` for c when it is larger than what c holds now; true when it did.
  bool offer(int c, const std::vector<int>& local_set) {
    if (local_set.size() <= local_part(c, in_).size()) return false;
    for (int v : components_[c]) in_[v] = 0;
    for (int i : local_set) in_[components_[c][i]] = 1;
    return true;
  }

  // Exact search on c seeded with what c holds; marks c proven when it finishes. Adds its
  // nodes and work to `result`.
  void search(int c, const MisBranchAndBoundOptions& options, int max_vertices, MisReferenceResult& result) {
    if (static_cast<int>(components_[c].size()) > max_vertices) return;
    const Graph sub = induced_subgraph(g_, components_[c]);
    const MisBranchAndBoundResult r = mis_branch_and_bound(sub, local_part(c, in_), options);
    offer(c, r.set);
    proven_[c] = r.proven_optimal;
    result.branch_and_bound_nodes += r.nodes;
    result.branch_and_bound_work += r.work;
  }

  std::vector<int> set() const {
    std::vector<int> s;
    for (int v = 0; v < g_.n; ++v) {
      if (in_[v]) s.push_back(v);
    }
    return s;
  }

 private:
  const Graph& g_;
  std::vector<std::vector<int>> components_;
  std::vector<char> in_;
  std::vector<char> proven_;
};

}  // namespace

MisReferenceResult mis_reference(const Graph& g, const MisReferenceOptions& options) {
  const Clock::time_point deadline =
      options.time_limit_s > 0
          ? Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.time_limit_s))
          : Clock::time_point::max();
  const MisKernel kernel = options.reduce ? reduce_mis(g) : identity_kernel(g);
  const Graph& k = kernel.graph;
  MisReferenceResult result;
  result.kernel_vertices = k.n;

  const long long steps = options.local_search_steps >= 0
                              ? options.local_search_steps
                              : std::clamp(kDefaultStepsPerVertex * static_cast<long long>(k.n), kMinSteps, kMaxDefaultSteps);
  const long long numvc_steps = static_cast<long long>(kNuMvcShare * static_cast<double>(steps));
  const long long phased_steps = steps - numvc_steps;
  MisBranchAndBoundOptions exact;
  exact.max_work = options.branch_and_bound_work >= 0 ? options.branch_and_bound_work : kDefaultBranchAndBoundWork;
  exact.deadline = deadline;

  const std::vector<int> greedy = min_degree_independent_set(k);
  NuMvcOptions numvc_options;
  numvc_options.seed = options.seed;
  NuMvc numvc(k, greedy, numvc_options);
  PhasedSearch phased(k, greedy, Rng::for_item(options.seed, 1).next_u64());
  auto run_searches = [&](long long numvc_budget, long long phased_budget) {
    result.local_search_steps += numvc.run(numvc_budget, k.n, deadline);
    result.local_search_steps += phased.run(phased_budget, k.n, deadline);
  };
  run_searches(numvc_steps / 10, phased_steps / 10);
  ComponentBest best(k, greedy);
  // Per component, the better of the two searches' sets; true for the components it improved.
  auto offer_searches = [&]() {
    std::vector<char> improved(static_cast<std::size_t>(best.count()), 0);
    for (const std::vector<int>& found : {numvc.best_independent_set(), phased.best_independent_set()}) {
      std::vector<char> in(static_cast<std::size_t>(k.n), 0);
      for (int v : found) in[v] = 1;
      for (int c = 0; c < best.count(); ++c) {
        if (!best.proven(c) && best.offer(c, best.local_part(c, in))) improved[c] = 1;
      }
    }
    return improved;
  };
  offer_searches();

  // One budget per pass, shared by the components, smallest first: small ones are cheap to
  // prove, and many hard components cannot multiply the time.
  std::vector<int> by_size(static_cast<std::size_t>(best.count()));
  std::iota(by_size.begin(), by_size.end(), 0);
  std::stable_sort(by_size.begin(), by_size.end(), [&](int a, int b) { return best.size(a) < best.size(b); });
  auto exact_pass = [&](const std::vector<char>& which) {
    const long long start = result.branch_and_bound_work;
    for (int c : by_size) {
      const long long left = exact.max_work - (result.branch_and_bound_work - start);
      if (!which[c] || left <= 0) continue;
      MisBranchAndBoundOptions component = exact;
      component.max_work = left;
      best.search(c, component, options.branch_and_bound_max_vertices, result);
    }
  };
  exact_pass(std::vector<char>(static_cast<std::size_t>(best.count()), 1));

  if (!best.all_proven() && steps > 0) {
    run_searches(numvc_steps - numvc_steps / 10, phased_steps - phased_steps / 10);
    exact_pass(offer_searches());
  }

  result.set = kernel.lift(best.set());
  result.proven_optimal = best.all_proven();
  result.time_limit_hit = options.time_limit_s > 0 && Clock::now() >= deadline;
  return result;
}

problems::Solution mis_reference_solve(const problems::Instance& instance, const SolveOptions& options) {
  const Graph& g = problems::instance_as<problems::GraphInstance>(instance, "mis").graph;
  MisReferenceOptions o;
  o.seed = options.seed;
  o.time_limit_s = options.time_limit_s;
  return problems::Solution::flat(mis_reference(g, o).set);
}

problems::Solution mvc_reference_solve(const problems::Instance& instance, const SolveOptions& options) {
  const Graph& g = problems::instance_as<problems::GraphInstance>(instance, "mvc").graph;
  MisReferenceOptions o;
  o.seed = options.seed;
  o.time_limit_s = options.time_limit_s;
  const std::vector<int> independent = mis_reference(g, o).set;
  std::vector<int> cover;
  std::size_t i = 0;
  for (int v = 0; v < g.n; ++v) {
    if (i < independent.size() && independent[i] == v) {
      ++i;
    } else {
      cover.push_back(v);
    }
  }
  return problems::Solution::flat(std::move(cover));
}

}  // namespace falcon::solvers
