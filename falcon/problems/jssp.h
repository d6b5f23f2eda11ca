#pragma once
// Job shop scheduling, makespan (Appendix B, Definition "JSSP"). Each of n jobs visits each of
// m machines once, in its own route order. Solution text (Appendix D):
//   "Schedule: [[2, 1, 3], [1, 3, 2]], Objective: 12.00"
// one bracketed job sequence per machine, machines in order 1..m, jobs 1-based in the text and
// 0-based in Solution::lists. A sequence set is decoded into the semi-active timetable (each
// operation starts when both its job predecessor and its machine predecessor have finished);
// see jssp_schedule.h for the decoder and the repair.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "falcon/problems/problem.h"

namespace falcon::problems::jssp {

struct Operation {
  int machine = 0;   // 0-based
  int duration = 0;  // >= 0 (orb07 has a zero; generated instances use U[1,99])
};

struct JsspInstance : Instance {
  int jobs = 0;
  int machines = 0;
  std::vector<std::vector<Operation>> routes;  // routes[job][k]: the job's k-th operation
  int size() const override { return jobs; }
};

// Keys: n (jobs), m (machines, default 5), distribution ("" or "taillard": durations U[1,99],
// a uniformly random machine order per job, as Taillard 1993 draws them).
std::shared_ptr<JsspInstance> generate(const GenerateOptions& options, std::uint64_t seed);
// OR-Library / JSPLIB text: '#' comment lines, "n m", then one line per job with m pairs
// "machine duration" (machines 0-based, in route order). Throws falcon::Error "FILE:LINE: ...".
std::shared_ptr<JsspInstance> read_file(const std::string& path);
// "JSSP n=2 m=2: J1:(M1,5)(M2,3) J2:(M2,4)(M1,6)" — one clause per job, 1-based like the output.
std::string prompt(const JsspInstance& instance);
std::string compact_prompt(const JsspInstance& instance);  // "JSSP:#1 1 5 2 3;#2 2 4 1 6;" (formats/compact.h)
// Jobs and machines relabelled, the machines' sequences moved with them (Problem::symmetric_copy).
SymmetricCopy symmetric_copy(const JsspInstance& instance, const Solution& schedule, Rng& rng);

// max(longest job, most loaded machine): no schedule is shorter.
std::int64_t lower_bound(const JsspInstance& instance);

// Exactly m lists, each a permutation of the jobs, whose disjunctive graph (job routes plus
// machine sequences) is acyclic, i.e. the sequences decode into a timetable.
bool feasible(const JsspInstance& instance, const Solution& solution);
// |lists - m| + entries of lists beyond the m-th + invalid, duplicate and missing jobs per
// machine (PermutationRepair::total) + deadlocks broken while decoding the permutation-repaired
// sequences (DecodedSchedule::deadlock_breaks). 0 iff feasible.
double violation(const JsspInstance& instance, const Solution& solution);
// Appendix E with a deadlock-free decoder: permutation repair per machine, then the
// sequences in which a list scheduler dispatches the operations (jssp_schedule.h).
Solution repair_schedule(const JsspInstance& instance, const Solution& solution);
// Makespan of the semi-active timetable of repair_schedule(solution): for a feasible solution,
// its own makespan.
double makespan(const JsspInstance& instance, const Solution& solution);

const Problem& problem();

}  // namespace falcon::problems::jssp
