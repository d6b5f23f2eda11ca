#include "falcon/problems/pfsp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <fstream>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"
#include "tests/problems/repair_properties.h"
#include "tests/benchmark_files.h"
#include "tests/error_of.h"

namespace falcon::problems::pfsp {
namespace {

using falcon::test_support::error_of;

const std::string kBenchmarks = std::string(FALCON_BENCHMARKS_DIR) + "/pfsp";
const std::string kData = std::string(FALCON_FIXTURES_DIR) + "/pfsp";

// rows[job][machine].
std::shared_ptr<PfspInstance> make_instance(const std::vector<std::vector<int>>& rows) {
  auto inst = std::make_shared<PfspInstance>();
  inst->jobs = static_cast<int>(rows.size());
  inst->machines = static_cast<int>(rows[0].size());
  for (const auto& r : rows) inst->times.insert(inst->times.end(), r.begin(), r.end());
  inst->name = "tiny";
  return inst;
}

// J1:(3,2) J2:(1,4) J3:(2,1): order J2 J1 J3 has makespan 8, J1 J2 J3 has 10.
std::shared_ptr<PfspInstance> tiny() { return make_instance({{3, 2}, {1, 4}, {2, 1}}); }

std::shared_ptr<PfspInstance> random_instance(Rng& rng, int max_jobs, int max_machines, std::uint64_t seed) {
  GenerateOptions opt;
  opt.n = rng.uniform_int(1, max_jobs);
  opt.params["m"] = std::to_string(rng.uniform_int(1, max_machines));
  return generate(opt, seed);
}

// The recursion of Definition B (PFSP) over the full completion-time table, written
// independently of the library's makespan().
long long reference_makespan(const PfspInstance& inst, const std::vector<int>& order) {
  const int k = static_cast<int>(order.size()), m = inst.machines;
  std::vector<std::vector<long long>> c(k + 1, std::vector<long long>(m + 1, 0));
  for (int i = 1; i <= k; ++i) {
    for (int j = 1; j <= m; ++j) c[i][j] = std::max(c[i][j - 1], c[i - 1][j]) + inst.p(order[i - 1], j - 1);
  }
  return c[k][m];
}

// Algorithm "PFSP Repair" of Appendix E as printed: O(n^2 m) per missing job.
std::vector<int> paper_repair(const PfspInstance& inst, const std::vector<int>& sigma) {
  std::vector<char> seen(inst.jobs, 0);
  std::vector<int> out;
  for (int v : sigma) {
    if (v >= 0 && v < inst.jobs && !seen[v]) out.push_back(v), seen[v] = 1;
  }
  for (int job = 0; job < inst.jobs; ++job) {
    if (seen[job]) continue;
    std::size_t best_pos = 0;
    long long best = LLONG_MAX;
    for (std::size_t i = 0; i <= out.size(); ++i) {
      std::vector<int> tmp = out;
      tmp.insert(tmp.begin() + static_cast<std::ptrdiff_t>(i), job);
      const long long m = reference_makespan(inst, tmp);
      if (m < best) best = m, best_pos = i;
    }
    out.insert(out.begin() + static_cast<std::ptrdiff_t>(best_pos), job);
  }
  return out;
}

std::vector<int> random_permutation(Rng& rng, int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  rng.shuffle(v);
  return v;
}

// ---------------------------------------------------------------- generator

TEST(Pfsp, GeneratorIsDeterministicWithTimesInOneToNinetyNine) {
  GenerateOptions opt;
  opt.n = 20;
  const auto a = generate(opt, 7), b = generate(opt, 7), c = generate(opt, 8);
  EXPECT_EQ(a->jobs, 20);
  EXPECT_EQ(a->machines, 5);  // default m
  EXPECT_EQ(a->name, "pfsp-n20-m5-s7");
  EXPECT_EQ(a->times, b->times);
  EXPECT_NE(a->times, c->times);
  EXPECT_GE(*std::min_element(a->times.begin(), a->times.end()), 1);
  EXPECT_LE(*std::max_element(a->times.begin(), a->times.end()), 99);
  opt.n = 50;
  opt.params["m"] = "10";
  const auto big = generate(opt, 1);
  EXPECT_EQ(big->size(), 50);
  EXPECT_EQ(big->machines, 10);
  EXPECT_EQ(big->times.size(), 500u);
  // 500 draws reach both ends of U[1, 99] (fixed seed, so this is deterministic).
  EXPECT_EQ(*std::min_element(big->times.begin(), big->times.end()), 1);
  EXPECT_EQ(*std::max_element(big->times.begin(), big->times.end()), 99);
}

TEST(Pfsp, GeneratorRejectsUnknownKeysDistributionsAndSizes) {
  GenerateOptions opt;
  opt.params["machines"] = "3";
  EXPECT_NE(error_of([&] { generate(opt, 1); }).find("unknown key 'machines'"), std::string::npos);
  GenerateOptions bad;
  bad.distribution = "gm";
  EXPECT_NE(error_of([&] { generate(bad, 1); }).find("unknown distribution 'gm'"), std::string::npos);
  GenerateOptions zero;
  zero.n = 0;
  EXPECT_THROW(generate(zero, 1), Error);
  GenerateOptions no_machines;
  no_machines.params["m"] = "0";
  EXPECT_THROW(generate(no_machines, 1), Error);
  EXPECT_THROW(taillard_instance(0, 20, 5), Error);  // seed 0 is a fixed point of the LCG
  EXPECT_THROW(taillard_instance(TaillardLcg::kModulus, 20, 5), Error);
}

TEST(Pfsp, TaillardGeneratorMatchesTheReadmeCheckValue) {
  const auto ta001 = taillard_instance(873654221, 20, 5);
  const std::vector<int> first_row = {54, 83, 15, 71, 77, 36, 53, 38, 27, 87, 76, 91, 14, 29, 12, 77, 32, 87, 68, 94};
  for (int j = 0; j < 20; ++j) EXPECT_EQ(ta001->p(j, 0), first_row[j]) << "job " << j + 1;
  // The same through the generic generator, and any 64-bit seed folds to a valid time seed.
  GenerateOptions opt;
  opt.distribution = "taillard";
  EXPECT_EQ(generate(opt, 873654221)->times, ta001->times);
  EXPECT_EQ(generate(opt, 873654221)->header.seed, 873654221);
  for (std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{1} << 40, ~std::uint64_t{0}}) {
    const auto inst = generate(opt, seed);
    EXPECT_GE(inst->header.seed, 1);
    EXPECT_LT(inst->header.seed, TaillardLcg::kModulus);
    EXPECT_EQ(generate(opt, seed)->times, inst->times);
  }
}

TEST(Pfsp, Ta001ReproducesExactlyFromItsSeed) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  const auto file = read_file(kBenchmarks + "/instances/ta001.txt");
  ASSERT_EQ(file->header.seed, 873654221);
  EXPECT_EQ(taillard_instance(file->header.seed, 20, 5)->times, file->times);
}

// ---------------------------------------------------------------- benchmark files

struct ReadmeRow {
  std::string name;
  int jobs = 0, machines = 0;
  std::int64_t seed = 0;
  int bks = 0, lb = 0, ub = 0;
};

std::vector<ReadmeRow> readme_table() {
  std::ifstream in(kBenchmarks + "/README.md");
  std::vector<ReadmeRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ta", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    for (std::string cell; std::getline(ss, cell, '|');) cells.push_back(cell);
    if (cells.size() < 7) continue;
    ReadmeRow r;
    std::stringstream(cells[0]) >> r.name;
    char x;
    std::stringstream(cells[1]) >> r.jobs >> x >> r.machines;
    std::stringstream(cells[2]) >> r.seed;
    std::stringstream(cells[3]) >> r.bks;
    std::stringstream(cells[5]) >> r.lb;
    std::stringstream(cells[6]) >> r.ub;
    rows.push_back(r);
  }
  return rows;
}

TEST(Pfsp, EveryTaillardFileParsesRegeneratesAndBoundsTheReadmeValues) {
  FALCON_SKIP_WITHOUT_BENCHMARKS();
  const auto rows = readme_table();
  ASSERT_EQ(rows.size(), 60u) << "README table of " << kBenchmarks;
  for (const ReadmeRow& r : rows) {
    SCOPED_TRACE(r.name);
    const auto inst = read_file(kBenchmarks + "/instances/" + r.name + ".txt");
    EXPECT_EQ(inst->name, r.name);
    EXPECT_EQ(inst->jobs, r.jobs);
    EXPECT_EQ(inst->machines, r.machines);
    EXPECT_EQ(inst->header.seed, r.seed);
    EXPECT_EQ(inst->header.lower_bound, r.lb);
    EXPECT_EQ(inst->header.upper_bound, r.ub);
    EXPECT_EQ(taillard_instance(r.seed, r.jobs, r.machines)->times, inst->times);
    // Our bound is Taillard's own formula, so it reproduces his 1993 LB exactly; a best-known
    // makespan below it would be a wrong table entry.
    const long long lb = lower_bound(*inst);
    EXPECT_EQ(lb, r.lb);
    EXPECT_GE(r.bks, lb);
    EXPECT_LE(r.bks, r.ub);
  }
}

// ---------------------------------------------------------------- malformed files

void expect_file_error(const std::string& file, const std::string& where, const std::string& what) {
  const std::string message = error_of([&] { read_file(kData + "/" + file); });
  EXPECT_NE(message.find(kData + "/" + file + where), std::string::npos) << message;
  EXPECT_NE(message.find(what), std::string::npos) << message;
}

TEST(Pfsp, MalformedFilesNameFileLineAndProblem) {
  expect_file_error("truncated.txt", ":5: ", "file ends after 2 of 3 machine rows (truncated file?)");
  expect_file_error("non_number.txt", ":5: ", "machine 2 row: 'x8' is not an integer");
  expect_file_error("wrong_count.txt", ":4: ", "machine 1 row has 3 processing times, expected one per job (4)");
  expect_file_error("short_header.txt", ":2: ", "expected 2 to 5 integers");
  expect_file_error("job_major.txt", ":1: ", "only Taillard's per-instance layout");
  expect_file_error("negative_time.txt", ":5: ", "processing time -3 of job 3 is out of range");
  expect_file_error("two_instances.txt", ":7: ", "split them into one file per instance");
  expect_file_error("empty.txt", ": ", "empty file");
  expect_file_error("no_such_file.txt", ": ", "cannot open the file");
}

TEST(Pfsp, ReaderToleratesCrlfAndBlankLines) {
  const auto inst = read_file(kData + "/valid_crlf.txt");
  EXPECT_EQ(inst->jobs, 4);
  EXPECT_EQ(inst->machines, 3);
  EXPECT_EQ(inst->p(0, 0), 5);
  EXPECT_EQ(inst->p(1, 0), 8);
  EXPECT_EQ(inst->p(0, 1), 7);
  EXPECT_EQ(inst->p(3, 2), 6);
  EXPECT_EQ(inst->header.upper_bound, 30);
  EXPECT_EQ(inst->header.lower_bound, 20);
}

// ---------------------------------------------------------------- objective, text, prompt

TEST(Pfsp, ObjectiveFeasibilityAndText) {
  const auto inst = tiny();
  const Problem& pb = problem();
  EXPECT_EQ(&problem_by_name("pfsp"), &pb);
  const Solution best = Solution::flat({1, 0, 2});
  EXPECT_DOUBLE_EQ(pb.objective(*inst, best), 8.0);
  EXPECT_DOUBLE_EQ(pb.objective(*inst, Solution::flat({0, 1, 2})), 10.0);
  EXPECT_DOUBLE_EQ(pb.objective(*inst, Solution::flat({1, 9, 0, -4, 2})), 8.0);  // invalid ids skipped
  EXPECT_TRUE(pb.feasible(*inst, best));
  EXPECT_EQ(pb.format(*inst, best), "Order: [2, 1, 3], Objective: 8.00");
  EXPECT_TRUE(pb.grammar(*inst).accepts("Order: [2, 1, 3], Objective: 8.00"));
  EXPECT_FALSE(pb.grammar(*inst).accepts("Order: [1, 0, 2], Objective: 8.00"));  // 0 is not a job
  EXPECT_FALSE(pb.grammar(*inst).accepts("Order: [1, 4, 2], Objective: 8.00"));
  EXPECT_EQ(pb.parse("Order: [2, 1, 3], Objective: 8.00").solution, best);
  // A 0-based text: "0" becomes -1, which repair drops like any invalid id.
  EXPECT_EQ(pb.parse("Order: [0, 1, 2], Objective: 8.00").solution, Solution::flat({-1, 0, 1}));
  EXPECT_FALSE(pb.feasible(*inst, Solution::flat({1, 0})));
  EXPECT_FALSE(pb.feasible(*inst, Solution::flat({1, 0, 2, 2})));
  EXPECT_FALSE(pb.feasible(*inst, Solution{{{1, 0, 2}, {1, 0, 2}}}));
  EXPECT_EQ(pb.violation(*inst, Solution::flat({0, 0, 7})), 1 + 1 + 2);  // invalid, duplicate, missing
  EXPECT_EQ(pb.violation(*inst, Solution{}), 3 + 1);                       // no list at all
}

TEST(Pfsp, PromptIsOneClausePerJobWithIntegerTimes) {
  EXPECT_EQ(prompt(*tiny()), "PFSP n=3 m=2: J1:(3,2) J2:(1,4) J3:(2,1)");
}

TEST(Pfsp, MakespanAndLowerBoundAgreeWithTheDefinition) {
  Rng rng(5);
  for (int k = 0; k < 50; ++k) {
    const auto inst = random_instance(rng, 12, 6, 300 + k);
    const auto order = random_permutation(rng, inst->jobs);
    const long long ms = makespan(*inst, order);
    EXPECT_EQ(ms, reference_makespan(*inst, order));
    EXPECT_LE(lower_bound(*inst), ms);
  }
}

// ---------------------------------------------------------------- repair

TEST(Pfsp, RepairInsertsMissingJobsAtTheBestPositionEarliestOnTies) {
  const auto inst = tiny();
  // Kept: [J2]. J1 goes after J2 (7 < 9). J3 ties at 8 between [J2 J3 J1] and [J2 J1 J3]:
  // the earlier position wins.
  EXPECT_EQ(repair_order(*inst, {1, 1, 9}), (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(problem().repair(*inst, Solution::flat({1, 1, 9})), Solution::flat({1, 2, 0}));
  EXPECT_EQ(problem().repair(*inst, Solution{}), Solution::flat(repair_order(*inst, {})));
}

TEST(Pfsp, BestInsertionEqualsTryingEveryPosition) {
  Rng rng(11);
  for (int k = 0; k < 300; ++k) {
    const auto inst = random_instance(rng, 15, 8, 1000 + k);
    std::vector<int> order = random_permutation(rng, inst->jobs);
    const int job = order.back();
    order.pop_back();
    order.resize(rng.uniform_int(0, static_cast<int>(order.size())));
    const Insertion fast = best_insertion(*inst, order, job);
    long long best = LLONG_MAX;
    int best_pos = -1;
    for (std::size_t i = 0; i <= order.size(); ++i) {
      std::vector<int> tmp = order;
      tmp.insert(tmp.begin() + static_cast<std::ptrdiff_t>(i), job);
      const long long m = reference_makespan(*inst, tmp);
      if (m < best) best = m, best_pos = static_cast<int>(i);
    }
    ASSERT_EQ(fast.position, best_pos) << inst->name;
    ASSERT_EQ(fast.makespan, best) << inst->name;
  }
  EXPECT_THROW(best_insertion(*tiny(), {0}, 3), Error);
}

TEST(Pfsp, AcceleratedRepairEqualsThePapersNaiveAlgorithm) {
  Rng rng(12);
  int changed = 0;
  for (int k = 0; k < 2000; ++k) {
    const auto inst = random_instance(rng, 14, 6, 5000 + k % 40);
    const Solution x = testing::adversarial_solution(rng, inst->jobs, /*nested=*/false, 0);
    const std::vector<int> fast = repair_order(*inst, x.items());
    ASSERT_EQ(fast, paper_repair(*inst, x.items())) << inst->name << " input " << testing::debug_string(x);
    changed += fast != x.items();
  }
  EXPECT_GT(changed, 1000);  // most inputs needed insertions, so the comparison had teeth
}

TEST(Pfsp, RepairSurvivesHugeInputs) {
  GenerateOptions opt;
  opt.n = 30;
  const auto inst = generate(opt, 3);
  std::vector<int> huge;
  Rng rng(4);
  for (int i = 0; i < 200000; ++i) huge.push_back(rng.bernoulli(0.5) ? kIndexOverflow : rng.uniform_int(-5, 5));
  const Solution r = problem().repair(*inst, Solution::flat(huge));
  EXPECT_TRUE(problem().feasible(*inst, r));
}

// PFSP-specific faulty outputs on top of the shared adversarial ones.
Solution pfsp_adversarial(Rng& rng, const Problem& pb, const PfspInstance& inst) {
  const int n = inst.jobs;
  switch (rng.uniform_int(0, 9)) {
    case 0: {  // a 0-based permutation in the 1-based text: ids -1 .. n-2
      std::vector<int> v = random_permutation(rng, n);
      for (int& x : v) x -= 1;
      return Solution::flat(v);
    }
    case 1: {  // no list, or several (nested-looking output)
      Solution s;
      const int lists = rng.bernoulli(0.3) ? 0 : rng.uniform_int(2, 3);
      for (int i = 0; i < lists; ++i) s.lists.push_back(random_permutation(rng, n));
      return s;
    }
    case 2: {  // a formatted permutation with garbled bytes, read by the lenient parser
      std::string text = pb.format(inst, Solution::flat(random_permutation(rng, n)));
      const int edits = rng.uniform_int(1, 6);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        const std::size_t at = static_cast<std::size_t>(rng.uniform_int(0, static_cast<int>(text.size()) - 1));
        switch (rng.uniform_int(0, 2)) {
          case 0: text.erase(at, 1); break;
          case 1: text.insert(at, 1, "0123456789[], "[rng.uniform_int(0, 13)]); break;
          default: text.resize(at); break;  // truncated generation
        }
      }
      const ParseResult parsed = pb.parse(text, /*lenient=*/true);
      return parsed.solution ? *parsed.solution : Solution{};
    }
    case 3: {  // long runs of repeats and junk
      std::vector<int> v;
      const int len = rng.uniform_int(5 * n, 20 * n);
      for (int i = 0; i < len; ++i) v.push_back(rng.bernoulli(0.1) ? kIndexOverflow : rng.uniform_int(-1, n));
      return Solution::flat(v);
    }
    default:
      return testing::adversarial_solution(rng, n, /*nested=*/false, 0);
  }
}

TEST(Pfsp, RepairPropertiesOnTenThousandAdversarialInputs) {
  Rng rng(2025);
  int feasible_inputs = 0, cases = 0;
  for (int k = 0; k < 20; ++k) {
    GenerateOptions opt;
    opt.n = k == 0 ? 1 : rng.uniform_int(2, 40);
    opt.params["m"] = std::to_string(rng.uniform_int(1, 10));
    opt.distribution = k % 2 ? "taillard" : "uniform";
    const auto inst = generate(opt, 100 + k);
    const auto stats = testing::check_repair_properties(problem(), *inst, 500, rng,
                                                        [&](Rng& r) { return pfsp_adversarial(r, problem(), *inst); });
    feasible_inputs += stats.feasible_inputs;
    cases += stats.cases;
    if (HasFailure()) return;
  }
  EXPECT_EQ(cases, 10000);
  EXPECT_GT(feasible_inputs, 500);  // property (2) was exercised, not only (1) and (3)
}

}  // namespace
}  // namespace falcon::problems::pfsp
