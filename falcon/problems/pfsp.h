#pragma once
// Permutation flow shop, makespan (Appendix B). Solution text: "Order: [3, 1, 2], Objective: x.xx",
// a permutation of the jobs 1..n (the text is 1-based; Solution holds 0-based job ids).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "falcon/problems/problem.h"

namespace falcon::problems::pfsp {

// What the first two lines of a Taillard file state; 0 where the file does not say.
struct TaillardHeader {
  std::int64_t seed = 0;
  int upper_bound = 0;
  int lower_bound = 0;
};

struct PfspInstance : Instance {
  int jobs = 0;
  int machines = 0;
  std::vector<int> times;  // job-major: times[job * machines + machine]
  TaillardHeader header;   // from a Taillard file; zeros when generated

  int size() const override { return jobs; }
  int p(int job, int machine) const { return times[static_cast<std::size_t>(job) * machines + machine]; }
};

// Taillard's (1993) generator: Park-Miller LCG (a = 16807, m = 2^31 - 1) by Schrage's method.
class TaillardLcg {
 public:
  static constexpr std::int64_t kModulus = 2147483647;
  explicit TaillardLcg(std::int64_t seed) : seed_(seed) {}
  int unif(int low, int high);  // advances the seed, then low + floor(u * (high - low + 1))
  std::int64_t seed() const { return seed_; }

 private:
  std::int64_t seed_;
};

// Taillard's PFSP instance for a time seed in [1, 2^31 - 2]: machine-major draws of U[1, 99].
// taillard_instance(873654221, 20, 5) is ta001.
std::shared_ptr<PfspInstance> taillard_instance(std::int64_t time_seed, int jobs, int machines);

// Keys: n (jobs), m (machines, default 5), distribution: uniform (default; falcon::Rng draws
// of U[1, 99]) | taillard (Taillard's LCG with `seed` as time seed; seeds outside
// [1, 2^31 - 2] are folded into it, so every 64-bit dataset seed gives an instance).
std::shared_ptr<PfspInstance> generate(const GenerateOptions& options, std::uint64_t seed);
// Taillard's per-instance layout (see the benchmark README): a text line, "n m seed ub lb",
// a text line, then m rows of n processing times (row = machine).
std::shared_ptr<PfspInstance> read_file(const std::string& path);
std::string prompt(const PfspInstance& instance);  // "PFSP n=2 m=3: J1:(5,3,8) J2:(1,9,4)"
std::string compact_prompt(const PfspInstance& instance);  // "PFSP:#1 5 3 8;#2 1 9 4;" (formats/compact.h)
// Jobs relabelled; the machines keep their order (Problem::symmetric_copy).
SymmetricCopy symmetric_copy(const PfspInstance& instance, const Solution& order, Rng& rng);

// Makespan of the order, skipping ids outside [0, n) (duplicates are scheduled twice).
long long makespan(const PfspInstance& instance, const std::vector<int>& order);
// Taillard's lower bound: the larger of the longest job and, over machines k, the load of k
// plus the smallest head before k and the smallest tail after k.
long long lower_bound(const PfspInstance& instance);

struct Insertion {
  int position = 0;        // insert before order[position]; order.size() = at the end
  long long makespan = 0;  // of the order with the job inserted there
};
// The makespan after inserting `job` into `order` (valid ids only) before each position
// 0..|valid ids|: Taillard's heads/tails acceleration, O(|order| m) for all positions.
std::vector<long long> insertion_makespans(const PfspInstance& instance, const std::vector<int>& order, int job);
// The position that minimises the makespan after inserting `job` into `order` (valid ids
// only), earliest on ties.
Insertion best_insertion(const PfspInstance& instance, const std::vector<int>& order, int job);
// NEH's job order: the largest total processing time first; ties keep the smaller ID first.
std::vector<int> neh_job_order(const PfspInstance& instance);

// The compact_ranked style's notes: after each job, the jobs not yet placed (IDs 1-based, as the
// text), the one after which the final makespan can be smallest first. The key of job j is a
// lower bound on the makespan of any order that starts with the jobs so far and then j: over
// machines k, the time k is free after j, plus the load still to come on k, plus the least time
// any later job needs after k. Ties: less idle time on the machines when j is appended, then the
// smaller ID. IDs out of range and repeats place nothing.
EchoNotes ranked_notes(const PfspInstance& instance, const Solution& order);

bool feasible(const PfspInstance& instance, const Solution& solution);
// invalid ids + duplicates + missing jobs (+1 when the solution is not exactly one list).
double violation(const PfspInstance& instance, const Solution& solution);
// Appendix E: keep first occurrences, then insert each missing job (ascending id) at its
// best_insertion position.
std::vector<int> repair_order(const PfspInstance& instance, const std::vector<int>& order);

const Problem& problem();

}  // namespace falcon::problems::pfsp
