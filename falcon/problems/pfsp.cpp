#include "falcon/problems/pfsp.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"
#include "falcon/problems/compact_text.h"
#include "falcon/problems/list_ops.h"
#include "falcon/problems/params.h"
#include "falcon/problems/pfsp_insertion.h"

namespace falcon::problems::pfsp {
namespace {

// Guards against allocating for absurd sizes from a typo or a corrupt header.
constexpr long long kMaxJobs = 100000;
constexpr long long kMaxMachines = 10000;
constexpr long long kMaxCells = 50000000;
constexpr long long kMaxTime = 1000000000;

std::string size_error(long long jobs, long long machines) {
  if (jobs < 1 || jobs > kMaxJobs) return "number of jobs " + std::to_string(jobs) + " is not in [1, " + std::to_string(kMaxJobs) + "]";
  if (machines < 1 || machines > kMaxMachines) {
    return "number of machines " + std::to_string(machines) + " is not in [1, " + std::to_string(kMaxMachines) + "]";
  }
  if (jobs * machines > kMaxCells) return "jobs x machines = " + std::to_string(jobs * machines) + " is too large";
  return "";
}

std::shared_ptr<PfspInstance> empty_instance(int jobs, int machines) {
  auto instance = std::make_shared<PfspInstance>();
  instance->jobs = jobs;
  instance->machines = machines;
  instance->times.assign(static_cast<std::size_t>(jobs) * machines, 0);
  return instance;
}

bool has_letter(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}

class TaillardReader {
 public:
  explicit TaillardReader(const std::string& path) : path_(path), in_(path) {
    if (!in_) throw Error(path + ": cannot open the file (does it exist and is it readable?)");
  }

  std::shared_ptr<PfspInstance> read() {
    std::string line;
    if (!next_nonblank(line)) fail("empty file: expected Taillard's header 'number of jobs, number of machines, ...'");
    if (!has_letter(line)) {
      fail("expected Taillard's text line 'number of jobs, number of machines, initial seed, upper bound and lower "
           "bound :', got '" + line + "' (only Taillard's per-instance layout is read)");
    }
    if (!next_nonblank(line)) fail("file ends after the first line: expected 'n m seed upper_bound lower_bound'");
    const std::vector<long long> head = integers(line, "header");
    if (head.size() < 2 || head.size() > 5) {
      fail("expected 2 to 5 integers 'n m [seed [upper_bound [lower_bound]]]', found " + std::to_string(head.size()));
    }
    const std::string bad_size = size_error(head[0], head[1]);
    if (!bad_size.empty()) fail(bad_size);
    auto instance = empty_instance(static_cast<int>(head[0]), static_cast<int>(head[1]));
    if (head.size() > 2) instance->header.seed = head[2];
    if (head.size() > 3) instance->header.upper_bound = static_cast<int>(std::clamp(head[3], 0LL, kMaxTime));
    if (head.size() > 4) instance->header.lower_bound = static_cast<int>(std::clamp(head[4], 0LL, kMaxTime));

    if (!next_nonblank(line)) fail("file ends after the header: expected 'processing times :' and " + std::to_string(head[1]) + " rows");
    if (!has_letter(line)) fail("expected the text line 'processing times :', got '" + line + "'");
    for (int k = 0; k < instance->machines; ++k) {
      const std::string row = "machine " + std::to_string(k + 1) + " row";
      if (!next_nonblank(line)) {
        fail("file ends after " + std::to_string(k) + " of " + std::to_string(instance->machines) + " machine rows (truncated file?)");
      }
      const std::vector<long long> values = integers(line, row);
      if (static_cast<long long>(values.size()) != instance->jobs) {
        fail(row + " has " + std::to_string(values.size()) + " processing times, expected one per job (" + std::to_string(instance->jobs) + ")");
      }
      for (int j = 0; j < instance->jobs; ++j) {
        if (values[j] < 0 || values[j] > kMaxTime) fail(row + ": processing time " + std::to_string(values[j]) + " of job " + std::to_string(j + 1) + " is out of range");
        instance->times[static_cast<std::size_t>(j) * instance->machines + k] = static_cast<int>(values[j]);
      }
    }
    if (next_nonblank(line)) {
      fail("unexpected text after the " + std::to_string(instance->machines) + " machine rows (Taillard's original tai*.txt files "
           "hold ten instances each: split them into one file per instance)");
    }
    instance->name = std::filesystem::path(path_).stem().string();
    return instance;
  }

 private:
  bool next_nonblank(std::string& line) {
    while (std::getline(in_, line)) {
      ++line_no_;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") != std::string::npos) return true;
    }
    return false;
  }

  std::vector<long long> integers(const std::string& line, const std::string& what) const {
    std::vector<long long> out;
    std::istringstream ss(line);
    std::string tok;
    while (ss >> tok) {
      char* end = nullptr;
      errno = 0;
      const long long v = std::strtoll(tok.c_str(), &end, 10);
      if (*end != '\0' || errno == ERANGE) fail(what + ": '" + tok + "' is not an integer");
      out.push_back(v);
    }
    return out;
  }

  [[noreturn]] void fail(const std::string& what) const { throw input_error(path_, line_no_, what); }

  std::string path_;
  std::ifstream in_;
  long line_no_ = 0;
};

}  // namespace

int TaillardLcg::unif(int low, int high) {
  constexpr std::int64_t a = 16807, q = 127773, r = 2836;
  const std::int64_t k = seed_ / q;
  seed_ = a * (seed_ % q) - k * r;
  if (seed_ < 0) seed_ += kModulus;
  const double u = static_cast<double>(seed_) / static_cast<double>(kModulus);
  return low + static_cast<int>(u * (high - low + 1));  // u >= 0: truncation is floor
}

std::shared_ptr<PfspInstance> taillard_instance(std::int64_t time_seed, int jobs, int machines) {
  const std::string bad_size = size_error(jobs, machines);
  if (!bad_size.empty()) throw Error("pfsp Taillard generator: " + bad_size);
  if (time_seed < 1 || time_seed >= TaillardLcg::kModulus) {
    throw Error("pfsp Taillard generator: time seed " + std::to_string(time_seed) + " is not in [1, 2^31 - 2]");
  }
  auto instance = empty_instance(jobs, machines);
  TaillardLcg lcg(time_seed);
  for (int k = 0; k < machines; ++k) {  // Taillard's loop order: machine outer, job inner
    for (int j = 0; j < jobs; ++j) instance->times[static_cast<std::size_t>(j) * machines + k] = lcg.unif(1, 99);
  }
  instance->header.seed = time_seed;
  instance->name = "pfsp-taillard-n" + std::to_string(jobs) + "-m" + std::to_string(machines) + "-s" + std::to_string(time_seed);
  return instance;
}

std::shared_ptr<PfspInstance> generate(const GenerateOptions& options, std::uint64_t seed) {
  ParamReader params(options, "pfsp");
  const int machines = params.get_int("m", 5);
  params.finish();
  const std::string bad_size = size_error(options.n, machines);
  if (!bad_size.empty()) throw Error("pfsp generator: " + bad_size);
  if (options.distribution == "taillard") {
    constexpr std::uint64_t kSeeds = TaillardLcg::kModulus - 1;  // valid time seeds: 1 .. 2^31 - 2
    const std::uint64_t time_seed = seed >= 1 && seed <= kSeeds ? seed : 1 + seed % kSeeds;
    return taillard_instance(static_cast<std::int64_t>(time_seed), options.n, machines);
  }
  if (!options.distribution.empty() && options.distribution != "uniform") {
    throw Error("pfsp generator: unknown distribution '" + options.distribution + "' (known: uniform, taillard)");
  }
  auto instance = empty_instance(options.n, machines);
  Rng rng(seed);
  for (int k = 0; k < machines; ++k) {
    for (int j = 0; j < options.n; ++j) instance->times[static_cast<std::size_t>(j) * machines + k] = rng.uniform_int(1, 99);
  }
  instance->name = "pfsp-n" + std::to_string(options.n) + "-m" + std::to_string(machines) + "-s" + std::to_string(seed);
  return instance;
}

std::shared_ptr<PfspInstance> read_file(const std::string& path) { return TaillardReader(path).read(); }

std::string prompt(const PfspInstance& instance) {
  // One clause per job, 1-based like the solution text: "J3:(p_31,...,p_3m)".
  std::string out = "PFSP n=" + std::to_string(instance.jobs) + " m=" + std::to_string(instance.machines) + ":";
  for (int j = 0; j < instance.jobs; ++j) {
    out += " J" + std::to_string(j + 1) + ":(";
    for (int k = 0; k < instance.machines; ++k) out += (k ? "," : "") + std::to_string(instance.p(j, k));
    out += ")";
  }
  return out;
}

std::string compact_prompt(const PfspInstance& instance) {
  // "PFSP:#1 54 83 15;#2 79 3 11;" — each job's ID (1-based like the solution) and its
  // processing times in machine order.
  std::string out = "PFSP:";
  for (int j = 0; j < instance.jobs; ++j) {
    std::vector<double> times;
    for (int k = 0; k < instance.machines; ++k) times.push_back(instance.p(j, k));
    out += compact_clause(j + 1, times, {});
  }
  return out;
}

SymmetricCopy symmetric_copy(const PfspInstance& instance, const Solution& order, Rng& rng) {
  const std::vector<int> relabel = random_relabelling(instance.jobs, {}, rng);
  auto copy = std::make_shared<PfspInstance>(instance);  // machines keep their order: it is the flow
  for (int j = 0; j < instance.jobs; ++j)
    for (int k = 0; k < instance.machines; ++k)
      copy->times[static_cast<std::size_t>(relabel[j]) * instance.machines + k] = instance.p(j, k);
  copy->name = instance.name + "~";
  return {copy, relabelled(order, relabel), relabel, {}};
}

long long makespan(const PfspInstance& instance, const std::vector<int>& order) {
  std::vector<long long> c(instance.machines, 0);  // completion time on each machine so far
  for (int job : order) {
    if (job < 0 || job >= instance.jobs) continue;
    long long prev = 0;
    for (int k = 0; k < instance.machines; ++k) prev = c[k] = std::max(prev, c[k]) + instance.p(job, k);
  }
  return instance.machines > 0 ? c.back() : 0;
}

long long lower_bound(const PfspInstance& instance) {
  const int n = instance.jobs, m = instance.machines;
  long long bound = 0;
  for (int j = 0; j < n; ++j) {
    long long total = 0;
    for (int k = 0; k < m; ++k) total += instance.p(j, k);
    bound = std::max(bound, total);
  }
  for (int k = 0; k < m; ++k) {
    long long load = 0, min_head = -1, min_tail = -1;
    for (int j = 0; j < n; ++j) {
      long long head = 0, tail = 0;
      for (int q = 0; q < k; ++q) head += instance.p(j, q);
      for (int q = k + 1; q < m; ++q) tail += instance.p(j, q);
      load += instance.p(j, k);
      if (min_head < 0 || head < min_head) min_head = head;
      if (min_tail < 0 || tail < min_tail) min_tail = tail;
    }
    bound = std::max(bound, min_head + load + min_tail);
  }
  return bound;
}

std::vector<long long> insertion_makespans(const PfspInstance& instance, const std::vector<int>& order, int job) {
  if (job < 0 || job >= instance.jobs) {
    throw Error("pfsp insertion: job " + std::to_string(job) + " is not in [0, " + std::to_string(instance.jobs) + ")");
  }
  std::vector<int> seq;
  seq.reserve(order.size());
  for (int v : order) {
    if (v >= 0 && v < instance.jobs) seq.push_back(v);
  }
  const int k = static_cast<int>(seq.size()), m = instance.machines;
  // head[i*m + j]: completion of the first i jobs on machine j.
  // tail[i*m + j]: time from the start of seq[i] on machine j to the end of the schedule of seq[i..].
  std::vector<long long> head(static_cast<std::size_t>(k + 1) * m, 0), tail(static_cast<std::size_t>(k + 1) * m, 0);
  for (int i = 1; i <= k; ++i) {
    for (int j = 0; j < m; ++j) {
      const long long above = head[(i - 1) * m + j], left = j ? head[i * m + j - 1] : 0;
      head[i * m + j] = std::max(above, left) + instance.p(seq[i - 1], j);
    }
  }
  for (int i = k - 1; i >= 0; --i) {
    for (int j = m - 1; j >= 0; --j) {
      const long long below = tail[(i + 1) * m + j], right = j + 1 < m ? tail[i * m + j + 1] : 0;
      tail[i * m + j] = std::max(below, right) + instance.p(seq[i], j);
    }
  }
  std::vector<long long> makespans(k + 1);
  for (int i = 0; i <= k; ++i) {
    long long finish = 0, cmax = 0;  // finish: the inserted job's completion on machine j
    for (int j = 0; j < m; ++j) {
      finish = std::max(finish, head[i * m + j]) + instance.p(job, j);
      cmax = std::max(cmax, finish + tail[i * m + j]);
    }
    makespans[i] = cmax;
  }
  return makespans;
}

Insertion best_insertion(const PfspInstance& instance, const std::vector<int>& order, int job) {
  const std::vector<long long> makespans = insertion_makespans(instance, order, job);
  const auto best = std::min_element(makespans.begin(), makespans.end());  // the first of equals
  return {static_cast<int>(best - makespans.begin()), *best};
}

std::vector<int> neh_job_order(const PfspInstance& instance) {
  std::vector<long long> total(instance.jobs, 0);
  for (int j = 0; j < instance.jobs; ++j) {
    for (int k = 0; k < instance.machines; ++k) total[j] += instance.p(j, k);
  }
  std::vector<int> jobs(instance.jobs);
  for (int j = 0; j < instance.jobs; ++j) jobs[j] = j;
  std::stable_sort(jobs.begin(), jobs.end(), [&](int a, int b) { return total[a] > total[b]; });
  return jobs;
}

namespace {

// A job's place in a ranked note: (bound, idle time, ID), smallest first.
using RankKey = std::tuple<long long, long long, int>;

// The key of appending `job` to a partial schedule whose machines are free at `ready`, with the
// jobs marked in `placed` (and `job`) already scheduled.
RankKey rank_key(const PfspInstance& instance, const std::vector<long long>& ready, const std::vector<char>& placed,
                 int job) {
  const int m = instance.machines;
  std::vector<long long> done(m);
  long long idle = 0;
  for (int k = 0; k < m; ++k) {
    const long long start = k ? std::max(ready[k], done[k - 1]) : ready[0];
    idle += start - ready[k];
    done[k] = start + instance.p(job, k);
  }
  std::vector<long long> load(m, 0), least_after(m, -1);  // over the jobs still to come after `job`
  for (int i = 0; i < instance.jobs; ++i) {
    if (placed[i] || i == job) continue;
    long long after = 0;  // time i needs on the machines after k
    for (int k = m - 1; k >= 0; --k) {
      load[k] += instance.p(i, k);
      if (least_after[k] < 0 || after < least_after[k]) least_after[k] = after;
      after += instance.p(i, k);
    }
  }
  long long bound = 0;
  for (int k = 0; k < m; ++k) bound = std::max(bound, done[k] + load[k] + std::max(least_after[k], 0LL));
  return {bound, idle, job};
}

}  // namespace

EchoNotes ranked_notes(const PfspInstance& instance, const Solution& order) {
  std::vector<long long> ready(instance.machines, 0);  // when each machine is free
  std::vector<char> placed(instance.jobs, 0);
  std::vector<std::string> notes;
  for (int job : order.items()) {
    if (job >= 0 && job < instance.jobs && !placed[job]) {
      long long prev = 0;
      for (int k = 0; k < instance.machines; ++k) prev = ready[k] = std::max(prev, ready[k]) + instance.p(job, k);
      placed[job] = 1;
    }
    std::vector<RankKey> keyed;
    for (int j = 0; j < instance.jobs; ++j)
      if (!placed[j]) keyed.push_back(rank_key(instance, ready, placed, j));
    std::sort(keyed.begin(), keyed.end());
    std::vector<int> ids;
    for (const RankKey& key : keyed) ids.push_back(std::get<2>(key) + 1);
    notes.push_back(id_list_text(ids));
  }
  return {notes};
}

double violation(const PfspInstance& instance, const Solution& solution) {
  const Deduplicated d = deduplicate(solution.items(), 0, instance.jobs - 1);
  const int missing = instance.jobs - static_cast<int>(d.kept.size());
  return d.invalid + d.duplicates + missing + (solution.lists.size() == 1 ? 0 : 1);
}

bool feasible(const PfspInstance& instance, const Solution& solution) { return violation(instance, solution) == 0; }

std::vector<int> repair_order(const PfspInstance& instance, const std::vector<int>& order) {
  std::vector<int> out = deduplicate(order, 0, instance.jobs - 1).kept;
  for (int job : missing_indices(out, 0, instance.jobs - 1)) {
    const Insertion at = best_insertion(instance, out, job);
    out.insert(out.begin() + at.position, job);
  }
  return out;
}

namespace {

class PfspProblem final : public Problem {
 public:
  PfspProblem()
      : Problem("pfsp", Sense::kMinimize, 1.0,
                {"Order", /*nested=*/false, /*allow_empty=*/false, 1, 1, "pfsp", /*index_prefix=*/"", /*echo=*/false}) {}
  std::shared_ptr<Instance> generate(const GenerateOptions& options, std::uint64_t seed) const override {
    return pfsp::generate(options, seed);
  }
  std::shared_ptr<Instance> read_file(const std::string& path) const override { return pfsp::read_file(path); }
  std::string prompt(const Instance& instance) const override { return pfsp::prompt(cast(instance)); }
  SymmetricCopy symmetric_copy(const Instance& instance, const Solution& solution, Rng& rng) const override {
    return pfsp::symmetric_copy(cast(instance), solution, rng);
  }
  double objective(const Instance& instance, const Solution& solution) const override {
    return static_cast<double>(makespan(cast(instance), solution.items()));
  }
  bool feasible(const Instance& instance, const Solution& solution) const override {
    return pfsp::feasible(cast(instance), solution);
  }
  double violation(const Instance& instance, const Solution& solution) const override {
    return pfsp::violation(cast(instance), solution);
  }
  Solution repair(const Instance& instance, const Solution& solution) const override {
    if (pfsp::feasible(cast(instance), solution)) return solution;
    return Solution::flat(repair_order(cast(instance), solution.items()));
  }
  // Deletions + insertions (+1 for fixing the list count): the kept first occurrences are a
  // common subsequence, so d <= (invalid + duplicates) + missing (+1) = v, alpha = 1.
  double repair_distance(const Instance&, const Solution& repaired, const Solution& original) const override {
    return insert_delete_distance(original.items(), repaired.items()) + (original.lists.size() == repaired.lists.size() ? 0 : 1);
  }
  std::unique_ptr<SemanticConstraint> semantic_constraint(std::shared_ptr<const Instance> instance) const override {
    return make_pfsp_constraint(std::move(instance));
  }
  Picture picture(const Instance& instance, const Solution& solution, const Solution* raw) const override {
    const PfspInstance& f = cast(instance);
    GanttChart chart;
    chart.rows = f.machines;
    std::vector<int> inserted;
    if (raw != nullptr) {
      inserted = items_missing_from(solution, *raw);
      chart.shows_repair = true;
      chart.marked_label = "job inserted by repair";
      chart.marked = inserted.size();
    }
    std::vector<double> machine_free(f.machines, 0);
    for (int job : in_range(solution.items(), f.jobs)) {
      const bool marked = std::binary_search(inserted.begin(), inserted.end(), job);
      double ready = 0;
      for (int k = 0; k < f.machines; ++k) {
        const double start = std::max(ready, machine_free[k]);
        chart.bars.push_back({k, start, static_cast<double>(f.p(job, k)), job, marked});
        ready = machine_free[k] = start + f.p(job, k);
      }
    }
    return chart;
  }

  const std::vector<FieldSpec>& instance_fields() const override {
    static const std::vector<FieldSpec> fields = {
        {"machines", FieldKind::kInt, "number of machines m"},
        {"times", FieldKind::kIntArray, "n*m processing times, job-major: times[j*m + k]"},
        {"taillard_seed", FieldKind::kInt, "Taillard time seed (distribution taillard), else 0"},
        {"upper_bound", FieldKind::kInt, "from a Taillard file, else 0"},
        {"lower_bound", FieldKind::kInt, "from a Taillard file, else 0"}};
    return fields;
  }
  InstanceData encode_instance(const Instance& instance) const override {
    const PfspInstance& f = cast(instance);
    InstanceData d;
    d.ints["machines"] = f.machines;
    d.int_arrays["times"].assign(f.times.begin(), f.times.end());
    d.ints["taillard_seed"] = f.header.seed;
    d.ints["upper_bound"] = f.header.upper_bound;
    d.ints["lower_bound"] = f.header.lower_bound;
    return d;
  }
  std::shared_ptr<Instance> decode_instance(const InstanceData& data, int n, const std::string& name,
                                            const std::string& where) const override {
    auto f = std::make_shared<PfspInstance>();
    f->jobs = n;
    f->machines = int_field(data, "machines", where);
    if (f->machines < 1) throw Error(where + ": instance field 'machines' must be positive");
    const auto& times = required_field(data.int_arrays, "times", where);
    expect_length(times.size(), static_cast<std::size_t>(n) * f->machines, "times", where);
    f->times.assign(times.begin(), times.end());
    for (int t : f->times) {
      if (t < 0) throw Error(where + ": a processing time is negative");
    }
    f->header.seed = required_field(data.ints, "taillard_seed", where);
    f->header.upper_bound = int_field(data, "upper_bound", where);
    f->header.lower_bound = int_field(data, "lower_bound", where);
    f->name = name;
    return f;
  }

 private:
  static const PfspInstance& cast(const Instance& i) { return instance_as<PfspInstance>(i, "pfsp"); }
};

}  // namespace

const Problem& problem() {
  static const PfspProblem instance;
  return instance;
}

}  // namespace falcon::problems::pfsp
