#pragma once
// The compact_echo and compact_state text styles: compact, with a note after each index of the
// solution. compact_echo's note is the running state the next choice depends on, where it changes
// (MIS: the neighbours the vertex rules out; CVRP: the customer's demand and the capacity left), so
// that feasibility is "never write an ID already ruled out" or one subtraction of two numbers just
// written, instead of arithmetic over the whole route:
//   solution  Routes: [[#3 (6 24), #7 (7 17)], [#1 (5 25)]], Objective: 6.02
// compact_state's note is the whole running state (MIS: the vertices still free, "#9 (#12#15#30)"),
// so the next choice is a look at the latest note, not a search of all the notes before it.
// Their prompts list what the notes copy (compact.h, PromptFor).
#include "falcon/formats/format.h"

namespace falcon::formats {

// One note per item of `items`; throw naming the problem when it has none.
problems::EchoNotes echo_notes(const problems::Problem& problem, const problems::Instance& instance,
                               const problems::Solution& items);
// The whole state where the echo writes its change; the echo's own for a problem whose are the same.
problems::EchoNotes state_notes(const problems::Problem& problem, const problems::Instance& instance,
                                const problems::Solution& items);

const Format& echo_format();
const Format& state_format();

}  // namespace falcon::formats
