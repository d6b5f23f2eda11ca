#pragma once
// The compact_insert text style: the solution written as the insertions that build it, the items
// taken in the order of the problem's insertion heuristic, each index the item the next one goes
// right after ("#0" before the first item: "first"), and each note the item placed next and its
// places, the heuristic's best first (PFSP: NEH's job order, places by the makespan they give,
// "#0 (#2:#0#1), #0 (#3:#2#1#0), #2 ()"), so "take the first" is NEH. Its texts are read back
// into the solution that the insertions build (Problem::solution_of_text).
#include "falcon/formats/format.h"

namespace falcon::formats {

const Format& insertion_format();

}  // namespace falcon::formats
