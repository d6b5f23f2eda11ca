#pragma once
// The heuristic sampler's walk through a noted text (compact_ranked, compact_insert): after each
// pick the decoder writes a note that lists the next pick's choices in the problem's heuristic
// order (formats/ranked.h, formats/insertion.h), and the walk takes rank r of them with
// probability proportional to q^r, as the model would pick from the same note, until a note is
// empty. So a walk with q -> 0 is the heuristic the notes rank by (min-degree greedy, NEH, nearest
// neighbour; OP: the best buy appended, not the greedy solver's best insertion), and every walk is
// feasible as written: the notes list only the choices that keep it so.
//   - the first pick has no note before it: a ranked text's comes from the note an out-of-range
//     item leaves (such an item moves nothing: the state before any pick); an insertion text's
//     first job goes into an empty order, whose one place is "first";
//   - a nested text (CVRP) whose note starts with ID 0 must end the list (the route): the IDs
//     after it are the next list's first choices.
#include <string>
#include <vector>

#include "falcon/core/rng.h"
#include "falcon/problems/problem.h"

namespace falcon::scoring {

// Rank r of `count` with probability proportional to q^r.
int draw_rank(int count, double q, Rng& rng);

// The choices a note lists, as items of the text (its IDs less the text's index base): "#4#9",
// a keyed note's IDs without their runs' counts ("1:#4#9 2:#7"), or the places after ':' in an
// insertion note ("#3:#2#1#0"); none when the note is no list of IDs (problems::note_ids).
std::vector<int> note_choices(const std::string& note, int index_base);

enum class NotedText { kRanked, kInsertion };

// One walk over `styled`'s notes (a problem written in a noted style): the items in the text's
// order, as the model writes them. It stops after 4n + 8 picks at most.
problems::Solution walk_notes(const problems::Problem& styled, const problems::Instance& instance, NotedText text,
                              double q, Rng& rng);

}  // namespace falcon::scoring
