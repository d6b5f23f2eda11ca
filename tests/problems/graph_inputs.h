#pragma once
// Inputs for the MIS / MVC property tests: feasible sets in random order, near-feasible sets
// (a few edits away), and the generic adversarial lists of repair_properties.h.
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/problems/graph.h"
#include "falcon/problems/solution.h"

namespace falcon::problems::testing {

// A random maximal independent set (random vertex order, first-fit), in random order.
std::vector<int> random_independent_set(Rng& rng, const Graph& g);

// One test input for MIS (cover = false) or MVC (cover = true). About a third are feasible.
Solution graph_set_input(Rng& rng, const Graph& g, bool cover);

}  // namespace falcon::problems::testing
