#include "falcon/problems/jssp.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"
#include "falcon/problems/compact_text.h"
#include "falcon/problems/jssp_schedule.h"
#include "falcon/problems/list_ops.h"
#include "falcon/problems/params.h"

namespace falcon::problems::jssp {

std::shared_ptr<JsspInstance> generate(const GenerateOptions& options, std::uint64_t seed) {
  ParamReader params(options, "jssp");
  const int m = params.get_int("m", 5);
  params.finish();
  if (!options.distribution.empty() && options.distribution != "taillard") {
    throw Error("jssp generator: unknown distribution '" + options.distribution + "' (known: taillard)");
  }
  if (options.n < 1 || m < 1) {
    throw Error("jssp generator: n and m must be at least 1 (got n=" + std::to_string(options.n) +
                ", m=" + std::to_string(m) + ")");
  }
  Rng rng(seed);
  auto instance = std::make_shared<JsspInstance>();
  instance->jobs = options.n;
  instance->machines = m;
  instance->routes.resize(options.n);
  for (auto& route : instance->routes) {
    std::vector<int> order(m);
    for (int r = 0; r < m; ++r) order[r] = r;
    rng.shuffle(order);
    for (int r : order) route.push_back({r, rng.uniform_int(1, 99)});
  }
  instance->name = "jssp-n" + std::to_string(options.n) + "-s" + std::to_string(seed);
  return instance;
}

namespace {

// Splits a line into non-negative integers; names the first token that is not one.
std::vector<long long> read_numbers(const std::string& path, long line_no, const std::string& line) {
  std::vector<long long> out;
  std::istringstream in(line);
  std::string token;
  while (in >> token) {
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(token.c_str(), &end, 10);
    if (*end != '\0' || token[0] == '-' || token[0] == '+' || errno == ERANGE || v > INT_MAX) {
      throw input_error(path, line_no, "'" + token + "' is not a non-negative integer");
    }
    out.push_back(v);
  }
  return out;
}

bool is_blank_or_comment(const std::string& line) {
  const auto b = line.find_first_not_of(" \t\r");
  return b == std::string::npos || line[b] == '#';
}

}  // namespace

// The most operations (jobs x machines) a file may announce: far above the benchmark sets (100 x 20),
// and low enough that no count derived from the header overflows an int.
constexpr long long kMaxOperations = 10'000'000;

std::shared_ptr<JsspInstance> read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open the file (does it exist and is it readable?)");
  auto instance = std::make_shared<JsspInstance>();
  instance->name = std::filesystem::path(path).stem().string();
  std::string line;
  long line_no = 0;
  bool have_header = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (is_blank_or_comment(line)) continue;
    const std::vector<long long> v = read_numbers(path, line_no, line);
    if (!have_header) {
      if (v.size() != 2 || v[0] < 1 || v[1] < 1) {
        throw input_error(path, line_no,
                          "expected the header 'n m' (jobs, machines, both >= 1) of the OR-Library/JSPLIB "
                          "job shop format; Taillard's two-matrix format is not read, convert it first");
      }
      if (v[0] > kMaxOperations || v[1] > kMaxOperations || v[0] * v[1] > kMaxOperations) {
        throw input_error(path, line_no, "the header 'n m' announces " + std::to_string(v[0]) + " x " + std::to_string(v[1]) +
                                             " operations, more than this reader takes (" + std::to_string(kMaxOperations) + ")");
      }
      instance->jobs = static_cast<int>(v[0]);
      instance->machines = static_cast<int>(v[1]);
      have_header = true;
      continue;
    }
    const int m = instance->machines;
    const int job = static_cast<int>(instance->routes.size());
    if (job == instance->jobs) {
      throw input_error(path, line_no,
                        "unexpected data after the " + std::to_string(job) + " job lines the header announced");
    }
    if (v.size() != 2 * static_cast<std::size_t>(m)) {
      throw input_error(path, line_no, "job " + std::to_string(job) + " has " + std::to_string(v.size()) +
                                           " numbers, expected " + std::to_string(2 * m) + " (" + std::to_string(m) +
                                           " pairs 'machine duration')");
    }
    std::vector<char> seen(m, 0);
    std::vector<Operation> route;
    for (int k = 0; k < m; ++k) {
      const long long machine = v[2 * k], duration = v[2 * k + 1];
      if (machine >= m) {
        throw input_error(path, line_no, "job " + std::to_string(job) + " operation " + std::to_string(k) + ": machine " +
                                             std::to_string(machine) + " is outside 0.." + std::to_string(m - 1) +
                                             " (machines are 0-based)");
      }
      if (seen[machine]) {
        throw input_error(path, line_no, "job " + std::to_string(job) + " visits machine " + std::to_string(machine) +
                                             " twice (each job must visit every machine exactly once)");
      }
      seen[machine] = 1;
      route.push_back({static_cast<int>(machine), static_cast<int>(duration)});
    }
    instance->routes.push_back(std::move(route));
  }
  if (!have_header) throw input_error(path, line_no, "no header 'n m' found (is the file empty?)");
  if (static_cast<int>(instance->routes.size()) != instance->jobs) {
    throw input_error(path, line_no, "file ends after " + std::to_string(instance->routes.size()) + " of the " +
                                         std::to_string(instance->jobs) + " job lines the header announced");
  }
  return instance;
}

std::string prompt(const JsspInstance& instance) {
  std::string out = "JSSP n=" + std::to_string(instance.jobs) + " m=" + std::to_string(instance.machines) + ":";
  for (int j = 0; j < instance.jobs; ++j) {
    out += " J" + std::to_string(j + 1) + ":";
    for (const Operation& op : instance.routes[j]) {
      out += "(M" + std::to_string(op.machine + 1) + "," + std::to_string(op.duration) + ")";
    }
  }
  return out;
}

std::string compact_prompt(const JsspInstance& instance) {
  // "JSSP:#1 1 5 2 3;#2 2 4 1 6;" — each job's ID, then its route as (machine, duration) pairs,
  // machines 1-based like the solution's machine lists.
  std::string out = "JSSP:";
  for (int j = 0; j < instance.jobs; ++j) {
    std::vector<double> route;
    for (const Operation& op : instance.routes[j]) route.insert(route.end(), {double(op.machine + 1), double(op.duration)});
    out += compact_clause(j + 1, route, {});
  }
  return out;
}

SymmetricCopy symmetric_copy(const JsspInstance& instance, const Solution& schedule, Rng& rng) {
  const std::vector<int> jobs = random_relabelling(instance.jobs, {}, rng);
  const std::vector<int> machines = random_relabelling(instance.machines, {}, rng);
  auto copy = std::make_shared<JsspInstance>(instance);
  for (int j = 0; j < instance.jobs; ++j) {
    copy->routes[jobs[j]] = instance.routes[j];
    for (Operation& op : copy->routes[jobs[j]]) op.machine = machines[op.machine];
  }
  copy->name = instance.name + "~";
  Solution moved = relabelled(schedule, jobs);
  if (static_cast<int>(moved.lists.size()) == instance.machines) {  // list k is machine k's sequence
    Solution by_machine = moved;
    for (int k = 0; k < instance.machines; ++k) by_machine.lists[machines[k]] = moved.lists[k];
    moved = std::move(by_machine);
  }
  return {copy, moved, jobs, machines};
}

std::int64_t lower_bound(const JsspInstance& instance) {
  std::vector<std::int64_t> load(instance.machines, 0);
  std::int64_t bound = 0;
  for (const auto& route : instance.routes) {
    std::int64_t length = 0;
    for (const Operation& op : route) {
      length += op.duration;
      load[op.machine] += op.duration;
    }
    bound = std::max(bound, length);
  }
  for (std::int64_t l : load) bound = std::max(bound, l);
  return bound;
}

double violation(const JsspInstance& instance, const Solution& solution) {
  const PermutationRepair p = repair_permutations(instance, solution);
  return p.total() + decode_schedule(instance, p.sequences).deadlock_breaks;
}

bool feasible(const JsspInstance& instance, const Solution& solution) {
  const PermutationRepair p = repair_permutations(instance, solution);
  return p.total() == 0 && decode_schedule(instance, p.sequences).deadlock_breaks == 0;
}

Solution repair_schedule(const JsspInstance& instance, const Solution& solution) {
  // decode_schedule is the identity on an acyclic graph, and permutation repair on
  // permutations, so a feasible solution comes back unchanged.
  return Solution{decode_schedule(instance, repair_permutations(instance, solution).sequences).sequences};
}

double makespan(const JsspInstance& instance, const Solution& solution) {
  return static_cast<double>(decode_schedule(instance, repair_permutations(instance, solution).sequences).makespan);
}

namespace {

class JsspProblem final : public Problem {
 public:
  JsspProblem()
      : Problem("jssp", Sense::kMinimize, 2.0,
                {"Schedule", /*nested=*/true, /*allow_empty=*/false, 1, 1, "jssp", /*index_prefix=*/"", /*echo=*/false}) {}
  std::shared_ptr<Instance> generate(const GenerateOptions& options, std::uint64_t seed) const override {
    return jssp::generate(options, seed);
  }
  std::shared_ptr<Instance> read_file(const std::string& path) const override { return jssp::read_file(path); }
  std::string prompt(const Instance& instance) const override { return jssp::prompt(cast(instance)); }
  SymmetricCopy symmetric_copy(const Instance& instance, const Solution& solution, Rng& rng) const override {
    return jssp::symmetric_copy(cast(instance), solution, rng);
  }
  // A schedule has a makespan only as a timetable; an infeasible one is scored as the
  // timetable its repair decodes to (the same number for a feasible one).
  double objective(const Instance& instance, const Solution& solution) const override {
    return makespan(cast(instance), solution);
  }
  bool feasible(const Instance& instance, const Solution& solution) const override {
    return jssp::feasible(cast(instance), solution);
  }
  double violation(const Instance& instance, const Solution& solution) const override {
    return jssp::violation(cast(instance), solution);
  }
  Solution repair(const Instance& instance, const Solution& solution) const override {
    return repair_schedule(cast(instance), solution);
  }
  // Sum over machine slots of the insert/delete distance between the lists (an absent list
  // is empty), plus the list-count difference. Every unit of violation but a deadlock break
  // costs at most 1 (a deletion of an invalid, duplicate or surplus entry, an insertion of a
  // missing job, a list added or dropped); a break moves one job: 2. Hence alpha = 2.
  double repair_distance(const Instance&, const Solution& repaired, const Solution& original) const override {
    const std::size_t slots = std::max(repaired.lists.size(), original.lists.size());
    const std::vector<int> empty;
    double d = repaired.lists.size() > original.lists.size() ? repaired.lists.size() - original.lists.size()
                                                             : original.lists.size() - repaired.lists.size();
    for (std::size_t i = 0; i < slots; ++i) {
      d += insert_delete_distance(i < original.lists.size() ? original.lists[i] : empty,
                                  i < repaired.lists.size() ? repaired.lists[i] : empty);
    }
    return d;
  }
  std::unique_ptr<SemanticConstraint> semantic_constraint(std::shared_ptr<const Instance> instance) const override {
    return make_jssp_constraint(std::move(instance));
  }
  // A raw sequence with no timetable (not one permutation per machine, or a cycle) is drawn as
  // repair makes it, and then, as for a given `raw`, the operations repair inserted or moved are
  // marked: those outside a longest common subsequence of each machine's two orders.
  Picture picture(const Instance& instance, const Solution& solution, const Solution* raw) const override {
    const JsspInstance& j = cast(instance);
    const bool drawable = feasible(instance, solution);
    const Solution drawn = drawable ? solution : repair(instance, solution);
    const Solution* before = raw != nullptr ? raw : (drawable ? nullptr : &solution);
    const auto decoded = decode_schedule(j, drawn.lists);
    GanttChart chart;
    chart.rows = j.machines;
    std::vector<std::pair<int, int>> placed;  // (machine, job)
    if (before != nullptr) {
      placed = items_placed_by_repair(*before, Solution{decoded.sequences});
      chart.shows_repair = true;
      chart.marked_label = "operation inserted or moved by repair";
      chart.marked = placed.size();
    }
    for (int job = 0; job < j.jobs; ++job) {
      for (std::size_t k = 0; k < j.routes[job].size(); ++k) {
        const Operation& op = j.routes[job][k];
        const bool marked = std::binary_search(placed.begin(), placed.end(), std::make_pair(op.machine, job));
        chart.bars.push_back({op.machine, static_cast<double>(decoded.start[job][k]), static_cast<double>(op.duration), job, marked});
      }
    }
    return chart;
  }

  const std::vector<FieldSpec>& instance_fields() const override {
    static const std::vector<FieldSpec> fields = {
        {"machines", FieldKind::kInt, "number of machines m"},
        {"route_machines", FieldKind::kIntArray, "n*m: job j's k-th operation runs on machine [j*m + k] (0-based)"},
        {"route_durations", FieldKind::kIntArray, "n*m: its duration"}};
    return fields;
  }
  InstanceData encode_instance(const Instance& instance) const override {
    const JsspInstance& j = cast(instance);
    InstanceData d;
    d.ints["machines"] = j.machines;
    auto& machines = d.int_arrays["route_machines"];
    auto& durations = d.int_arrays["route_durations"];
    for (const auto& route : j.routes) {
      if (static_cast<int>(route.size()) != j.machines)
        throw Error("jssp instance '" + instance.name + "': a job route does not visit every machine once");
      for (const auto& op : route) {
        machines.push_back(op.machine);
        durations.push_back(op.duration);
      }
    }
    return d;
  }
  std::shared_ptr<Instance> decode_instance(const InstanceData& data, int n, const std::string& name,
                                            const std::string& where) const override {
    auto j = std::make_shared<JsspInstance>();
    j->jobs = n;
    j->machines = int_field(data, "machines", where);
    if (j->machines < 1) throw Error(where + ": instance field 'machines' must be positive");
    const auto& machines = required_field(data.int_arrays, "route_machines", where);
    const auto& durations = required_field(data.int_arrays, "route_durations", where);
    const std::size_t ops = static_cast<std::size_t>(n) * j->machines;
    expect_length(machines.size(), ops, "route_machines", where);
    expect_length(durations.size(), ops, "route_durations", where);
    j->routes.assign(n, {});
    for (int job = 0; job < n; ++job) {
      std::vector<bool> seen(j->machines, false);
      for (int k = 0; k < j->machines; ++k) {
        const std::size_t i = static_cast<std::size_t>(job) * j->machines + k;
        if (machines[i] < 0 || machines[i] >= j->machines || seen[machines[i]] || durations[i] < 0) {
          throw Error(where + ": job " + std::to_string(job) + " does not visit every machine once with a duration >= 0");
        }
        seen[machines[i]] = true;
        j->routes[job].push_back({machines[i], durations[i]});
      }
    }
    j->name = name;
    return j;
  }

 private:
  static const JsspInstance& cast(const Instance& i) { return instance_as<JsspInstance>(i, "jssp"); }
};

}  // namespace

const Problem& problem() {
  static const JsspProblem instance;
  return instance;
}

}  // namespace falcon::problems::jssp
