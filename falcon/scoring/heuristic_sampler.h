#pragma once
// A model-free sampler over the choices the model's text offers: the yardstick a model has to
// beat to claim that it learned something beyond grammar, notes, repair and sampling. It writes,
// pick by pick, what the model would write, taking rank r of the text's ranked candidates for the
// pick with probability proportional to q^r (q -> 0: the heuristic the ranking comes from;
// q = 1: uniform among the candidates). Texts it knows:
//   - compact text with candidate lists (TSP): the current node's listed neighbours that are still
//     unvisited, nearest first, as its prompt clause lists them; any unvisited node, uniformly,
//     when none of them is left and for the first node.
//   - ranked and insertion notes (compact_ranked: OP, CVRP, MIS, MVC; compact_insert: PFSP): the
//     choices of the note the decoder writes after each pick, in the heuristic's order (note_walk.h).
//   - JSSP's machine sequences (any text): MWKR's non-delay dispatch, each pick rank r of the jobs
//     that can start on the machine, most work remaining first (a noisy MWKR; the text has no
//     choice list of its own to walk).
// Its text is parsed, repaired and scored like a model's sample (sample_outcome.h), and the row
// chooses among its samples by the model rows' rules (instance_draws.h: best of n, Algorithm 2),
// so at the same n and rule it is the model's sampling with the model taken out.
#include <cstdint>
#include <vector>

#include "falcon/formats/text_style.h"
#include "falcon/scoring/eval_instances.h"
#include "falcon/scoring/eval_spec.h"
#include "falcon/scoring/instance_result.h"

namespace falcon::scoring {

// Throws falcon::Error naming the problem and text when the sampler does not know that text.
void check_heuristic_sampler(const std::string& problem, const formats::TextStyle& style);

// The candidate lists of a compact prompt: for each clause "#i ...:#a#b...;", i's listed IDs in order.
std::vector<std::vector<int>> prompt_candidate_lists(const std::string& prompt, int n);

// One row (fixed or adaptive, policy: heuristic) on one instance whose problem writes the model's
// text `style` (formats::with_text_style). Sample k draws from the stream (seed, key x budget + k).
InstanceResult run_heuristic_sampler_row(const RowSpec& row, const EvalInstance& e, const formats::TextStyle& style,
                                         std::uint64_t seed);

}  // namespace falcon::scoring
