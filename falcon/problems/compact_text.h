#pragma once
// The pieces of the compact text style's prompts (formats/compact.h). Every problem writes its
// instance as clauses, one per entity (node, vertex, job):
//   "#7 12 87 5:#3#9;"   its ID, its numbers, and after ':' the IDs it points to
// (nearest neighbours for routing, graph neighbours for MIS/MVC; none for scheduling). IDs and
// numbers are whole tokens under the whole_ids tokenizer, so no separator stands between an ID
// and a number, and an ID is never read as a number.
#include <string>
#include <vector>

namespace falcon::problems {

// "#3#9": IDs run together, as a clause lists them (and the compact_echo style's notes).
std::string id_list_text(const std::vector<int>& ids);

// `numbers` are written as whole numbers ("%.0f": any magnitude, no "-0"); callers round them.
// `id_numbers`, when given, are one number per listed ID, written after it: "#3 5#9 2".
std::string compact_clause(int id, const std::vector<double>& numbers, const std::vector<int>& ids,
                           const std::vector<int>& id_numbers = {});

// A whole number as text at any magnitude (a file's coincident nodes can make a scaled value
// huge, and a cast to an integer type would overflow).
std::string whole_number_text(double x);

}  // namespace falcon::problems
