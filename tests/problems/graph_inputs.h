#pragma once
// Inputs for the MIS / MVC property tests: feasible sets in random order, near-feasible sets
// (a few edits away), and the generic adversarial lists of repair_properties.h.
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/problems/graph.h"
#include "falcon/problems/problem.h"
#include "falcon/problems/solution.h"

namespace falcon::problems::testing {

// A random maximal independent set (random vertex order, first-fit), in random order.
std::vector<int> random_independent_set(Rng& rng, const Graph& g);

// One test input for MIS (cover = false) or MVC (cover = true). About a third are feasible.
Solution graph_set_input(Rng& rng, const Graph& g, bool cover);

// The k-th small graph of the repair-equals-the-paper tests: n in 1..18, Barabasi-Albert (m 1-2)
// every third, else Erdos-Renyi at p drawn in [0, 0.8).
GenerateOptions small_graph_options(Rng& rng, int k);
// The k-th graph of the repair-property tests: n in 1..80, Barabasi-Albert (m up to 5) every
// fourth, else Erdos-Renyi at p 0, 0.05, 0.15, 0.5, 1 in turn.
GenerateOptions mixed_graph_options(Rng& rng, int k);

}  // namespace falcon::problems::testing
