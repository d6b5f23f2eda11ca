#pragma once
// JSSP as a dispatch order, the compact_ranked text's (formats/ranked.h): the schedule written as
// the order in which its operations start, one job ID per operation (the job's next one), each
// followed by a note of the jobs that have operations left, in MWKR dispatch's preference:
//   "Dispatch: [#2 (#1#2), #1 (#2#1), #2 (#1), #1 ()], Objective: 12.00"
// Any order that names each job m times is a schedule: a pick appends the job's next operation to
// its machine, starting when both the job and the machine are free, so no order can deadlock, and
// "take each note's first job" is MWKR's non-delay dispatch (solvers/jssp_heuristics.h).
#include "falcon/problems/jssp.h"

namespace falcon::problems::jssp {

// The note after each pick (IDs 1-based, as the text writes jobs): the jobs with operations left,
// the earliest possible start of their next operation first, then the lower machine, then the most
// work remaining, then the lower ID; after the last operation, "". An ID out of range, or of a job
// with no operations left, moves nothing.
EchoNotes dispatch_notes(const JsspInstance& instance, const Solution& picks);

// The order in which the semi-active timetable of `schedule` (repaired first, as the objective
// reads it) starts its operations: of the operations next on both their job and their machine, the
// one that starts first, ties to the lower machine. from_dispatch of it gives the same timetable.
Solution dispatch_order(const JsspInstance& instance, const Solution& schedule);

// The compact_ranked_conflict text's notes: after each pick, the Giffler-Thompson conflict set, the
// only jobs whose pick is a real decision. Of the next operations, the one that can finish first
// fixes the machine (ties: the lower); the set is the jobs whose next operation is on that machine
// and can start before that finish, the earliest start first, then the most work remaining, then the
// lower ID. Taking each note's first job is again MWKR's non-delay dispatch (tested), and most notes
// hold one job. Picks are read as in dispatch_notes.
EchoNotes conflict_notes(const JsspInstance& instance, const Solution& picks);

// `schedule` (repaired first) as a Giffler-Thompson order: at each conflict set, the job next on
// the machine in the schedule's own sequence when it is in the set, else the one that finishes
// first. Every pick is then in its note, and from_dispatch of it builds an active schedule whose
// makespan is at most the schedule's (an optimal label stays optimal; tested).
Solution conflict_order(const JsspInstance& instance, const Solution& schedule);

// The m machine sequences a dispatch order builds. Picks that move nothing are skipped; operations
// never picked stay off their machines' sequences, for repair to place.
Solution from_dispatch(const JsspInstance& instance, const Solution& picks);

}  // namespace falcon::problems::jssp
