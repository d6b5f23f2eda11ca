#pragma once
// JSSP machine sequences -> timetable, and the repair of Appendix E made deadlock-free.
//
// Why not the paper's repair as written: it reorders each machine's sequence by a topological
// order of the job routes alone, which relates no two operations of one machine. Machines can
// still disagree: with J1 = (M1, M2) and J2 = (M2, M1), the sequences M1: [J2, J1],
// M2: [J1, J2] are permutations, yet M1 runs J1 only after J2, J2 reaches M1 only after M2,
// M2 runs J2 only after J1, and J1 reaches M2 only after M1: a cycle in the disjunctive graph,
// so no timetable exists. Hence the second phase here is a list scheduler (decode_schedule)
// that only ever dispatches an operation whose job predecessor is done, and breaks each
// deadlock by one deterministic move.
#include <cstdint>
#include <vector>

#include "falcon/problems/jssp.h"

namespace falcon::problems::jssp {

// Phase 1: every machine gets exactly one permutation of the jobs.
struct PermutationRepair {
  std::vector<std::vector<int>> sequences;  // m permutations of 0..n-1
  int list_count_error = 0;  // |lists - m|
  int surplus_entries = 0;   // entries of lists beyond the m-th (no such machine: all dropped)
  int invalid = 0;           // entries outside 0..n-1 in the first m lists
  int duplicates = 0;        // repeated jobs in one machine's list (the first is kept)
  int missing = 0;           // jobs absent from a machine's list (appended in ascending order)
  int total() const { return list_count_error + surplus_entries + invalid + duplicates + missing; }
};

// Keeps the first m lists (a missing list counts as empty), keeps the first occurrence of
// each valid job in each list and appends the missing jobs in ascending order (Appendix E's
// PermutationRepair). Identity on lists that are already permutations.
PermutationRepair repair_permutations(const JsspInstance& instance, const Solution& solution);

// Phase 2: the semi-active timetable, by a list scheduler over the machine sequences.
struct DecodedSchedule {
  std::vector<std::vector<int>> sequences;       // per machine, the order operations were dispatched
  std::vector<std::vector<std::int64_t>> start;  // start[job][k]: start of the job's k-th operation
  std::int64_t makespan = 0;
  int deadlock_breaks = 0;  // moves made; 0 exactly when the input graph is acyclic
};

// `sequences` must hold m permutations of 0..n-1 (repair_permutations' output).
// Repeatedly dispatches, on any machine, the next operation of its sequence whose job
// predecessor is done, starting it at max(job predecessor end, machine predecessor end).
// When no machine can proceed (a deadlock: the remaining graph has a cycle), it takes the
// operations whose job predecessor is done — each unfinished job has exactly one — picks the
// one nearest the front of its machine's remaining sequence (ties: lower machine), and moves
// it to that front; then dispatching resumes.
// Guarantees:
//  - termination: every break is followed by at least one dispatch, so at most n*m breaks and
//    n*m dispatches (O(n*m*(n + m)) time).
//  - acyclic output: the global dispatch order puts every operation after its job predecessor
//    (only then is it dispatchable) and after its machine predecessor in `sequences` (the
//    output is that order), so it is a topological order of the output's disjunctive graph.
//  - identity on acyclic input: the undispatched part of an acyclic graph always has a source,
//    an operation whose job and machine predecessors are dispatched, i.e. a dispatchable
//    machine head; so no deadlock occurs, nothing moves and the output equals the input.
//  - locality: each break moves one job within one sequence: one deletion plus one insertion.
DecodedSchedule decode_schedule(const JsspInstance& instance, std::vector<std::vector<int>> sequences);

}  // namespace falcon::problems::jssp
