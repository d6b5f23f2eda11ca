#pragma once
// The compact text style: IDs are their own tokens ("#7", never a number), each entity's numbers
// stand next to its ID (on a coarse grid for coordinates), and routing prompts may list each
// node's nearest neighbours, so that "go to a near, unvisited node" is a lookup of IDs instead of
// arithmetic on coordinates:
//   prompt    TSP:#0 12 87:#5#3;#1 40 2:#7#4;...        (grid 0..99, 2 candidates)
//   solution  Route: [#0, #5, #3, ...], Objective: 3.85
// Each problem writes its own clauses (its compact_prompt, helpers in problems/compact_text.h);
// this file says which, for every style's prompt.
#include <string>

#include "falcon/formats/format.h"

namespace falcon::formats {

// The prompt a style's notes need: the compact one, or one that lists what the notes copy
// (compact_echo: graphs write each edge once, at its lower end; CVRP each candidate's demand), or
// what the state notes leave to choose (compact_state and after: graphs add each vertex's degree).
enum class PromptFor { kCompact, kEcho, kState };

// Throws naming `style` and the problem when the problem has no compact prompt.
std::string compact_prompt(const problems::Problem& problem, const problems::Instance& instance, int candidates,
                           PromptFor level, std::string_view style);

const Format& compact_format();

}  // namespace falcon::formats
