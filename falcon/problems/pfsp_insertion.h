#pragma once
// PFSP written as insertions (the compact_insert text style): the jobs are placed one by one in
// NEH's order (the largest total processing time first), and the text says where each one goes,
// as the job it is inserted right after ("#0": first). The note after each place names the job
// placed next and its places, the least makespan of the partial order first, so that always
// taking the note's first place is NEH:
//   Order: [#0 (#2:#0#1), #0 (#3:#2#1#0), #2 ()], Objective: 8.00
// reads "job 1 (NEH's first: the most total time, the smaller ID on ties) first, job 2 before it,
// job 3 right after job 2": the order 2, 3, 1, NEH's own, as each job went to its note's first place.
// In a Solution of anchors, -1 is "first" ("#0" in the 1-based text) and j >= 0 is "right after job j".
#include <vector>

#include "falcon/problems/pfsp.h"

namespace falcon::problems::pfsp {

inline constexpr int kFirstPlace = -1;  // the anchor of a job that goes before every job placed so far

// The anchors that build `order` in NEH's job order: for each job, the job before it among those
// placed before it, or kFirstPlace. Of an order that is not a permutation (a model's, unrepaired)
// the first occurrences of valid IDs are written, and a missing job's anchor is the job itself,
// which places nothing: the text then reads back as that part of the order.
Solution insertion_anchors(const PfspInstance& instance, const Solution& order);

// The order the anchors build. An anchor that is not a job placed so far places nothing (the job
// is missing, for repair to insert); each anchor after the n-th adds the invalid ID n, so that a
// text that goes on after the last job is not feasible as written.
Solution from_insertions(const PfspInstance& instance, const Solution& anchors);

// One note per anchor: "#j:#a#b..." for the job placed next (1-based) and its anchors (0 = first),
// the least makespan after inserting it there first, earlier places first on ties; "" after the
// last job.
EchoNotes insertion_notes(const PfspInstance& instance, const Solution& anchors);

}  // namespace falcon::problems::pfsp
