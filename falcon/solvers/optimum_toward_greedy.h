#pragma once
// Among a problem's optimal sets, the one a ranked text's greedy agrees with most. A graph has
// many maximum independent sets (minimum covers); which one the reference solver returns is an
// accident of its search, and written in the ranked text's order it turns each step's label into
// a pick the model cannot tell from the others. Walking the text's order instead, each step takes
// the best-ranked vertex of the note that some optimum holding the vertices taken so far also
// holds (an exact check by branch and bound on the rest of the graph), so the label leaves the
// greedy's first pick only where every optimum does.
#include <vector>

#include "falcon/problems/graph.h"
#include "falcon/problems/problem.h"
#include "falcon/solvers/solver.h"

namespace falcon::solvers {

// Branch-and-bound work of one check (MisBranchAndBoundOptions::max_work): a check that runs out
// counts as "no optimum holds it", so the result stays an optimum and stays deterministic.
inline constexpr long long kTowardGreedyCheckWork = 100000000;

// `set`: an independent set of g (ascending or not). Returns an independent set at least as large,
// ascending, whose min-degree greedy order (problems::mis_mvc::mis_ranked_order) takes the note's
// best-ranked vertex wherever an independent set that large allows it.
std::vector<int> mis_set_toward_greedy(const problems::Graph& g, const std::vector<int>& set);
// The same walk over the note ordered by problems::mis_mvc::two_hop_preference (ties broken by the
// two-hop rule, then ID): the labels of the compact_ranked_keyed text, written in that order.
std::vector<int> mis_set_toward_two_hop(const problems::Graph& g, const std::vector<int>& set);
// `cover`: a vertex cover of g. Returns a cover at most as large, ascending, likewise for the
// max-degree greedy (problems::mis_mvc::mvc_ranked_order).
std::vector<int> mvc_cover_toward_greedy(const problems::Graph& g, const std::vector<int>& cover);
// The same walk over the note ordered by problems::mis_mvc::two_hop_preference.
std::vector<int> mvc_cover_toward_two_hop(const problems::Graph& g, const std::vector<int>& cover);

// Registry adapters ("reference_toward_greedy"): the reference solver's optimum, then the above.
problems::Solution mis_reference_toward_greedy(const problems::Instance& instance, const SolveOptions& options);
problems::Solution mvc_reference_toward_greedy(const problems::Instance& instance, const SolveOptions& options);
// "reference_toward_two_hop": the reference solver's optimum, then the two-hop walks above.
problems::Solution mis_reference_toward_two_hop(const problems::Instance& instance, const SolveOptions& options);
problems::Solution mvc_reference_toward_two_hop(const problems::Instance& instance, const SolveOptions& options);

}  // namespace falcon::solvers
