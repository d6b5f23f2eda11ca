#include "tests/problems/graph_inputs.h"

#include <algorithm>
#include <string>

#include "tests/problems/repair_properties.h"

namespace falcon::problems::testing {

std::vector<int> random_independent_set(Rng& rng, const Graph& g) {
  std::vector<int> order(static_cast<std::size_t>(g.n));
  for (int v = 0; v < g.n; ++v) order[v] = v;
  rng.shuffle(order);
  std::vector<char> blocked(static_cast<std::size_t>(g.n), 0);
  std::vector<int> set;
  for (int v : order) {
    if (blocked[v]) continue;
    set.push_back(v);
    for (int w : g.neighbors(v)) blocked[w] = 1;
  }
  rng.shuffle(set);
  return set;
}

Solution graph_set_input(Rng& rng, const Graph& g, bool cover) {
  const int kind = rng.uniform_int(0, 9);
  if (kind <= 2 || g.n == 0) return adversarial_solution(rng, g.n, /*nested=*/false, 0);
  if (kind == 9) {  // a coin flip per vertex
    std::vector<int> s;
    for (int v = 0; v < g.n; ++v) {
      if (rng.bernoulli(0.5)) s.push_back(v);
    }
    rng.shuffle(s);
    return Solution::flat(s);
  }
  // A feasible base: a maximal independent set, or the cover it leaves.
  std::vector<int> base = random_independent_set(rng, g);
  if (cover) {
    std::vector<char> in(static_cast<std::size_t>(g.n), 0);
    for (int v : base) in[v] = 1;
    base.clear();
    for (int v = 0; v < g.n; ++v) {
      if (!in[v]) base.push_back(v);
    }
    rng.shuffle(base);
  }
  if (kind <= 5) {
    // Still feasible: drop vertices from an independent set, add vertices to a cover.
    if (!cover && !base.empty()) base.resize(rng.uniform_int(0, static_cast<int>(base.size())));
    if (cover && rng.bernoulli(0.5)) base.push_back(rng.uniform_int(0, g.n - 1));
    if (cover) {  // the added vertex may repeat one: keep the set a set
      std::vector<char> seen(static_cast<std::size_t>(g.n), 0);
      std::vector<int> unique;
      for (int v : base) {
        if (!seen[v]) seen[v] = 1, unique.push_back(v);
      }
      base = unique;
    }
    return Solution::flat(base);
  }
  // A few edits away from feasible.
  const int edits = rng.uniform_int(1, 4);
  for (int e = 0; e < edits; ++e) {
    const int at = base.empty() ? 0 : rng.uniform_int(0, static_cast<int>(base.size()) - 1);
    switch (rng.uniform_int(0, 4)) {
      case 0:  // a valid vertex that may conflict (MIS) or was already there
        base.insert(base.begin() + at, rng.uniform_int(0, g.n - 1));
        break;
      case 1:  // drop one (MVC: may uncover edges)
        if (!base.empty()) base.erase(base.begin() + at);
        break;
      case 2:  // repeat one
        if (!base.empty()) base.push_back(base[at]);
        break;
      case 3:
        base.insert(base.begin() + at, rng.bernoulli(0.5) ? g.n + rng.uniform_int(0, 3) : -1);
        break;
      default:
        base.push_back(kIndexOverflow);
        break;
    }
  }
  return Solution::flat(base);
}

GenerateOptions small_graph_options(Rng& rng, int k) {
  GenerateOptions opt;
  opt.n = rng.uniform_int(1, 18);
  if (k % 3 == 2 && opt.n >= 3) {
    opt.distribution = "ba";
    opt.params["m"] = std::to_string(rng.uniform_int(1, 2));
  } else {
    opt.params["p"] = std::to_string(rng.uniform(0.0, 0.8));
  }
  return opt;
}

GenerateOptions mixed_graph_options(Rng& rng, int k) {
  GenerateOptions opt;
  opt.n = rng.uniform_int(1, 80);
  if (k % 4 == 3 && opt.n >= 2) {
    opt.distribution = "ba";
    opt.params["m"] = std::to_string(rng.uniform_int(1, std::min(opt.n - 1, 5)));
  } else {
    const double densities[] = {0.0, 0.05, 0.15, 0.5, 1.0};
    opt.params["p"] = std::to_string(densities[k % 5]);
  }
  return opt;
}

}  // namespace falcon::problems::testing
