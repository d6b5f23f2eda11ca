#pragma once
// The compact_ranked text style: compact_state with the note ranked by the problem's simple
// heuristic and the solution written in that heuristic's order (TSP: the nearest unvisited nodes,
// the tour from node 0 toward its nearer side; MIS: the free vertices fewest free neighbours
// first, "#9 (#30#12#15)"; MVC: the vertices with uncovered edges, most first; CVRP: the customers
// that fit, nearest first; OP: the nodes that fit, most prize per added length first; PFSP: the
// jobs by the lower bound they leave; JSSP: the schedule as a dispatch order, the jobs by the
// earliest start of their next operation, then most work remaining), so "take the first" is the
// heuristic and the model learns where to leave it. Its grammar is the echo's where ranked notes are
// ID lists as the echo's are; a problem whose echo notes are numbers, or that has no echo (TSP,
// JSSP), names its own.
#include "falcon/formats/format.h"

namespace falcon::formats {

const Format& ranked_format();
// compact_ranked_opening: the same text, its prompt ending on the note an item out of range would
// leave ("... (#47#12#30)"), the first pick's choices, so that no pick goes without its note.
const Format& ranked_opening_format();
// compact_ranked_conflict: the opening text with notes of only the choices that compete, where a
// problem has them (JSSP: the Giffler-Thompson conflict set, problems/jssp_dispatch.h); its
// labels are written in an order whose every pick is in its note.
const Format& ranked_conflict_format();
// compact_ranked_keyed: the opening text whose notes write the count the greedy ranks by before
// each run of ties (MIS and MVC: "1:#30#12 2:#15"), so that the model sees which choices the
// greedy holds equal, where the ranked note alone orders ties by ID. A set is written with its
// ties broken by problems::mis_mvc::two_hop_key, which those counts let the model compute.
const Format& ranked_keyed_format();

}  // namespace falcon::formats
