#include "falcon/problems/jssp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/problems/jssp_schedule.h"
#include "falcon/problems/list_ops.h"
#include "falcon/problems/registry.h"
#include "tests/problems/repair_properties.h"
#include "tests/benchmark_files.h"

namespace falcon::problems::jssp {
namespace {

// J1: (M1,5)(M2,3), J2: (M2,4)(M1,6) — routes in opposite machine orders.
std::shared_ptr<JsspInstance> crossed() {
  auto inst = std::make_shared<JsspInstance>();
  inst->jobs = 2;
  inst->machines = 2;
  inst->routes = {{{0, 5}, {1, 3}}, {{1, 4}, {0, 6}}};
  inst->name = "crossed";
  return inst;
}

std::shared_ptr<JsspInstance> generated(int n, int m, std::uint64_t seed) {
  GenerateOptions opt;
  opt.n = n;
  opt.params["m"] = std::to_string(m);
  return generate(opt, seed);
}

// A feasible schedule: dispatch the next operation of a random unfinished job, n*m times.
// Every acyclic schedule is a possible outcome (any topological order of it is a run).
Solution random_dispatch(Rng& rng, const JsspInstance& inst) {
  Solution s;
  s.lists.assign(inst.machines, {});
  std::vector<int> next(inst.jobs, 0), open;
  for (int j = 0; j < inst.jobs; ++j) open.push_back(j);
  while (!open.empty()) {
    const int at = rng.uniform_int(0, static_cast<int>(open.size()) - 1);
    const int j = open[at];
    s.lists[inst.routes[j][next[j]].machine].push_back(j);
    if (++next[j] == inst.machines) open.erase(open.begin() + at);
  }
  return s;
}

// Independent random permutations per machine: on larger instances almost always cyclic.
Solution random_permutations(Rng& rng, const JsspInstance& inst) {
  Solution s;
  for (int r = 0; r < inst.machines; ++r) {
    std::vector<int> p(inst.jobs);
    for (int j = 0; j < inst.jobs; ++j) p[j] = j;
    rng.shuffle(p);
    s.lists.push_back(p);
  }
  return s;
}

// A feasible schedule with a few adjacent swaps: valid permutations, often with short cycles.
Solution perturbed_dispatch(Rng& rng, const JsspInstance& inst) {
  Solution s = random_dispatch(rng, inst);
  const int swaps = rng.uniform_int(1, 4);
  for (int k = 0; k < swaps && inst.jobs > 1; ++k) {
    auto& l = s.lists[rng.uniform_int(0, inst.machines - 1)];
    const int i = rng.uniform_int(0, inst.jobs - 2);
    std::swap(l[i], l[i + 1]);
  }
  return s;
}

// Checks the timetable against the model of Appendix B: job order, one operation at a time
// per machine, and semi-active starts (each at the later of its two predecessors' ends).
void expect_valid_timetable(const JsspInstance& inst, const DecodedSchedule& d) {
  std::int64_t makespan = 0;
  for (int j = 0; j < inst.jobs; ++j) {
    for (int k = 0; k < inst.machines; ++k) {
      const std::int64_t end = d.start[j][k] + inst.routes[j][k].duration;
      makespan = std::max(makespan, end);
      if (k + 1 < inst.machines) {
        EXPECT_GE(d.start[j][k + 1], end);
      }
    }
  }
  EXPECT_EQ(d.makespan, makespan);
  for (int r = 0; r < inst.machines; ++r) {
    std::int64_t machine_end = 0;
    for (int j : d.sequences[r]) {
      int k = 0;
      while (inst.routes[j][k].machine != r) ++k;
      const std::int64_t job_end = k == 0 ? 0 : d.start[j][k - 1] + inst.routes[j][k - 1].duration;
      EXPECT_EQ(d.start[j][k], std::max(job_end, machine_end)) << "job " << j << " on machine " << r;
      machine_end = d.start[j][k] + inst.routes[j][k].duration;
    }
  }
}

TEST(Jssp, GeneratorIsDeterministicTaillardStyle) {
  GenerateOptions opt;
  opt.n = 12;
  const auto a = generate(opt, 3), b = generate(opt, 3), c = generate(opt, 4);
  EXPECT_EQ(a->jobs, 12);
  EXPECT_EQ(a->machines, 5);  // the default
  EXPECT_EQ(a->name, "jssp-n12-s3");
  bool differs = false;
  for (int j = 0; j < 12; ++j) {
    std::vector<int> machines;
    for (int k = 0; k < 5; ++k) {
      const Operation& op = a->routes[j][k];
      EXPECT_EQ(op.machine, b->routes[j][k].machine);
      EXPECT_EQ(op.duration, b->routes[j][k].duration);
      EXPECT_GE(op.duration, 1);
      EXPECT_LE(op.duration, 99);
      differs |= op.duration != c->routes[j][k].duration;
      machines.push_back(op.machine);
    }
    std::sort(machines.begin(), machines.end());
    EXPECT_EQ(machines, (std::vector<int>{0, 1, 2, 3, 4}));
  }
  EXPECT_TRUE(differs);
  const auto wide = generated(6, 9, 1);
  EXPECT_EQ(wide->machines, 9);
  EXPECT_EQ(wide->routes[5].size(), 9u);
}

TEST(Jssp, GeneratorRejectsBadOptions) {
  GenerateOptions typo;
  typo.params["machines"] = "3";
  EXPECT_THROW(generate(typo, 1), Error);
  GenerateOptions dist;
  dist.distribution = "uniform";
  EXPECT_THROW(generate(dist, 1), Error);
  GenerateOptions zero;
  zero.params["m"] = "0";
  EXPECT_THROW(generate(zero, 1), Error);
  GenerateOptions ok;
  ok.distribution = "taillard";
  EXPECT_EQ(generate(ok, 1)->size(), 20);
}

TEST(Jssp, PromptIsOneClausePerJobOneBased) {
  EXPECT_EQ(prompt(*crossed()), "JSSP n=2 m=2: J1:(M1,5)(M2,3) J2:(M2,4)(M1,6)");
}

TEST(Jssp, RegisteredUnderItsName) {
  EXPECT_EQ(&problem_by_name("jssp"), &problem());
  EXPECT_EQ(problem().sense(), Sense::kMinimize);
}

TEST(Jssp, FeasibleScheduleTextAndMakespan) {
  const auto inst = crossed();
  // M1: J1 then J2; M2: J2 then J1. J1 [0,5) on M1, J2 [0,4) on M2, J2 [5,11) on M1,
  // J1 [5,8) on M2: makespan 11.
  const Solution s{{{0, 1}, {1, 0}}};
  EXPECT_TRUE(problem().feasible(*inst, s));
  EXPECT_EQ(problem().violation(*inst, s), 0.0);
  EXPECT_EQ(problem().objective(*inst, s), 11.0);
  const std::string text = problem().format(*inst, s);
  EXPECT_EQ(text, "Schedule: [[1, 2], [2, 1]], Objective: 11.00");
  EXPECT_TRUE(problem().grammar(*inst).accepts(text));
  EXPECT_FALSE(problem().grammar(*inst).accepts("Schedule: [[0, 1], [1, 0]], Objective: 11.00"));
  const ParseResult back = problem().parse(text);
  ASSERT_TRUE(back.solution.has_value());
  EXPECT_EQ(*back.solution, s);
  EXPECT_EQ(problem().repair(*inst, s), s);
  const DecodedSchedule d = decode_schedule(*inst, s.lists);
  EXPECT_EQ(d.start, (std::vector<std::vector<std::int64_t>>{{0, 5}, {0, 5}}));
  expect_valid_timetable(*inst, d);
}

TEST(Jssp, OppositeMachineOrdersAreACycleThatRepairBreaksWithOneMove) {
  const auto inst = crossed();
  // M1: J2 before J1, M2: J1 before J2. Both lists are permutations and no job order is
  // violated within a list (the paper's topological reordering leaves them alone), but J1 on
  // M1 waits for J2 on M1, which follows J2 on M2, which waits for J1 on M2, which follows J1
  // on M1: a cycle, no timetable.
  const Solution cyclic{{{1, 0}, {0, 1}}};
  EXPECT_FALSE(problem().feasible(*inst, cyclic));
  EXPECT_EQ(problem().violation(*inst, cyclic), 1.0);
  // Both schedulable operations (J1 on M1, J2 on M2) are 1 from their front; the lower
  // machine wins: J1 moves to the front of M1. Then J1 [0,5) M1, [5,8) M2; J2 [8,12) M2, [12,18) M1.
  const Solution r = problem().repair(*inst, cyclic);
  EXPECT_EQ(r, (Solution{{{0, 1}, {0, 1}}}));
  EXPECT_TRUE(problem().feasible(*inst, r));
  EXPECT_EQ(problem().objective(*inst, r), 18.0);
  EXPECT_EQ(problem().objective(*inst, cyclic), 18.0);  // scored as its repair
  EXPECT_EQ(problem().repair_distance(*inst, r, cyclic), 2.0);  // alpha = 2 is tight here
}

TEST(Jssp, ViolationCountsEveryKindOfError) {
  const auto inst = crossed();
  // Machine 1: "0" (-1 after the 1-based shift) invalid, J1 duplicated, J2 missing.
  // Machine 2 fine; a third list with 3 entries is surplus.
  const Solution s{{{-1, 0, 0}, {1, 0}, {0, 1, 7}}};
  const PermutationRepair p = repair_permutations(*inst, s);
  EXPECT_EQ(p.invalid, 1);
  EXPECT_EQ(p.duplicates, 1);
  EXPECT_EQ(p.missing, 1);
  EXPECT_EQ(p.surplus_entries, 3);
  EXPECT_EQ(p.list_count_error, 1);
  EXPECT_EQ(p.sequences, (std::vector<std::vector<int>>{{0, 1}, {1, 0}}));
  EXPECT_EQ(problem().violation(*inst, s), 7.0);
  // No lists at all: 2 missing lists of 2 jobs, filled in ascending order; then M1 [J1, J2],
  // M2 [J1, J2] is acyclic (J2 waits on M2 for J1), no break.
  const Solution none{};
  EXPECT_EQ(problem().violation(*inst, none), 2 + 2 + 2);
  EXPECT_EQ(problem().repair(*inst, none), (Solution{{{0, 1}, {0, 1}}}));
}

TEST(Jssp, LenientParseOfGarbageStillRepairs) {
  const auto inst = crossed();
  const ParseResult p = problem().parse("Schedule: [[2, 2, 0], [99999999999999", /*lenient=*/true);
  ASSERT_TRUE(p.solution.has_value());
  const Solution r = problem().repair(*inst, *p.solution);
  EXPECT_TRUE(problem().feasible(*inst, r));
}

TEST(Jssp, DecoderBreaksEveryDeadlockAndNeverMovesAFeasibleInput) {
  Rng rng(77);
  int cyclic_inputs = 0;
  for (int t = 0; t < 300; ++t) {
    const auto inst = generated(rng.uniform_int(2, 12), rng.uniform_int(1, 8), 500 + t);
    const Solution good = random_dispatch(rng, *inst);
    const DecodedSchedule g = decode_schedule(*inst, good.lists);
    EXPECT_EQ(g.deadlock_breaks, 0);
    EXPECT_EQ(g.sequences, good.lists);
    expect_valid_timetable(*inst, g);

    const Solution bad = t % 2 ? random_permutations(rng, *inst) : perturbed_dispatch(rng, *inst);
    const DecodedSchedule d = decode_schedule(*inst, bad.lists);
    cyclic_inputs += d.deadlock_breaks > 0;
    EXPECT_LE(d.deadlock_breaks, inst->jobs * inst->machines);
    expect_valid_timetable(*inst, d);
    // The output is acyclic: decoding it again moves nothing and gives the same timetable.
    const DecodedSchedule again = decode_schedule(*inst, d.sequences);
    EXPECT_EQ(again.deadlock_breaks, 0);
    EXPECT_EQ(again.sequences, d.sequences);
    EXPECT_EQ(again.start, d.start);
    // Each break is one move: one deletion plus one insertion per break at most.
    int distance = 0;
    for (int r = 0; r < inst->machines; ++r) distance += insert_delete_distance(bad.lists[r], d.sequences[r]);
    EXPECT_LE(distance, 2 * d.deadlock_breaks);
    if (HasFailure()) return;
  }
  EXPECT_GT(cyclic_inputs, 100);  // the deadlock path was exercised
}

TEST(Jssp, RepairPropertiesOnTenThousandInputs) {
  Rng rng(2025);
  int cases = 0, feasible_inputs = 0;
  for (int k = 0; k < 40; ++k) {
    const auto inst = generated(rng.uniform_int(1, 15), rng.uniform_int(1, 10), 900 + k);
    const int n = inst->jobs, m = inst->machines;
    const auto stats = testing::check_repair_properties(problem(), *inst, 250, rng, [&](Rng& r) {
      switch (r.uniform_int(0, 5)) {
        case 0: return random_dispatch(r, *inst);        // feasible
        case 1: return perturbed_dispatch(r, *inst);     // permutations, often cyclic
        case 2: return random_permutations(r, *inst);    // permutations, mostly cyclic
        case 3: {                                        // right lists, wrong machine count
          Solution s = random_dispatch(r, *inst);
          if (r.bernoulli(0.5) && m > 1) {
            s.lists.resize(r.uniform_int(0, m - 1));
          } else {
            for (int extra = r.uniform_int(1, 3); extra > 0; --extra) {
              s.lists.push_back(random_permutations(r, *inst).lists[0]);
            }
          }
          return s;
        }
        default:                                         // garbage of every kind
          return testing::adversarial_solution(r, n, /*nested=*/true, m + 2);
      }
    });
    cases += stats.cases;
    feasible_inputs += stats.feasible_inputs;
    if (HasFailure()) return;
  }
  EXPECT_EQ(cases, 10000);
  EXPECT_GT(feasible_inputs, 1000);
}

// ---- Benchmark files -------------------------------------------------------------------

struct Bound {
  int jobs = 0, machines = 0;
  long long lb = 0, ub = 0;
};

std::map<std::string, Bound> read_bounds() {
  std::ifstream in(std::string(FALCON_BENCHMARKS_DIR) + "/jssp/bounds.csv");
  std::map<std::string, Bound> out;
  std::string line;
  std::getline(in, line);  // header: name,jobs,machines,lb,ub,...
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string name, cell;
    Bound b;
    std::getline(row, name, ',');
    std::getline(row, cell, ',');
    b.jobs = std::stoi(cell);
    std::getline(row, cell, ',');
    b.machines = std::stoi(cell);
    std::getline(row, cell, ',');
    b.lb = std::stoll(cell);
    std::getline(row, cell, ',');
    b.ub = std::stoll(cell);
    out[name] = b;
  }
  return out;
}

TEST(JsspReader, EveryBenchmarkParsesAndMatchesItsBounds) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  const auto bounds = read_bounds();
  ASSERT_EQ(bounds.size(), 122u);
  for (const auto& [name, b] : bounds) {
    const auto inst = read_file(std::string(FALCON_BENCHMARKS_DIR) + "/jssp/instances/" + name + ".txt");
    EXPECT_EQ(inst->name, name);
    EXPECT_EQ(inst->jobs, b.jobs) << name;
    EXPECT_EQ(inst->machines, b.machines) << name;
    ASSERT_EQ(static_cast<int>(inst->routes.size()), b.jobs) << name;
    const std::int64_t lb = lower_bound(*inst);
    EXPECT_GT(lb, 0) << name;
    EXPECT_LE(lb, b.lb) << name;
    EXPECT_LE(b.lb, b.ub) << name;
  }
}

TEST(JsspReader, Ft06ReadsAsPublished) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  const auto inst = read_file(std::string(FALCON_BENCHMARKS_DIR) + "/jssp/instances/ft06.txt");
  // First job line: "2 1 0 3 1 6 3 7 5 3 4 6".
  ASSERT_EQ(inst->routes[0].size(), 6u);
  EXPECT_EQ(inst->routes[0][0].machine, 2);
  EXPECT_EQ(inst->routes[0][0].duration, 1);
  EXPECT_EQ(inst->routes[0][5].machine, 4);
  EXPECT_EQ(inst->routes[0][5].duration, 6);
  // Machine loads and job lengths of ft06 are all below 55; the bound is the largest, 47.
  EXPECT_EQ(lower_bound(*inst), 47);
}

TEST(JsspReader, TinyFixtureMatchesThePrompt) {
  const auto inst = read_file(std::string(FALCON_FIXTURES_DIR) + "/jssp/tiny.txt");
  EXPECT_EQ(prompt(*inst), "JSSP n=2 m=2: J1:(M1,5)(M2,3) J2:(M2,4)(M1,6)");
}

std::string read_error(const std::string& file) {
  try {
    read_file(std::string(FALCON_FIXTURES_DIR) + "/jssp/" + file);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(JsspReader, MalformedFilesNameFileAndLine) {
  const struct {
    const char* file;
    const char* where;
    const char* what;
  } cases[] = {
      {"bad_header.txt", "bad_header.txt:2:", "header 'n m'"},
      {"short_job.txt", "short_job.txt:3:", "has 3 numbers, expected 4"},
      {"machine_out_of_range.txt", "machine_out_of_range.txt:3:", "machine 2 is outside 0..1"},
      {"repeated_machine.txt", "repeated_machine.txt:2:", "visits machine 0 twice"},
      {"truncated.txt", "truncated.txt:4:", "after 2 of the 3 job lines"},
      {"extra_line.txt", "extra_line.txt:4:", "unexpected data"},
      {"not_a_number.txt", "not_a_number.txt:3:", "'x3' is not a non-negative integer"},
      {"huge_header.txt", "huge_header.txt:2:", "more than this reader takes"},
      {"negative.txt", "negative.txt:2:", "'-2' is not a non-negative integer"},
      {"empty.txt", "empty.txt:2:", "no header"},
  };
  for (const auto& c : cases) {
    const std::string message = read_error(c.file);
    EXPECT_NE(message.find(c.where), std::string::npos) << message;
    EXPECT_NE(message.find(c.what), std::string::npos) << message;
  }
  EXPECT_NE(read_error("does_not_exist.txt").find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace falcon::problems::jssp
