#include "falcon/solvers/pfsp_reference.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "falcon/core/rng.h"

namespace falcon::solvers {
namespace {

using problems::pfsp::Insertion;
using problems::pfsp::PfspInstance;

// pfsp::best_insertion without its per-call allocations and input filtering (the inner loop
// of the search), counting the work it does.
class InsertionEvaluator {
 public:
  explicit InsertionEvaluator(const PfspInstance& instance)
      : instance_(instance),
        m_(instance.machines),
        head_(static_cast<std::size_t>(instance.jobs + 1) * instance.machines),
        tail_(static_cast<std::size_t>(instance.jobs + 1) * instance.machines) {}

  // Best position of `job` in `seq` (which must not hold it), earliest on ties.
  Insertion best(const std::vector<int>& seq, int job) {
    const int k = static_cast<int>(seq.size()), m = m_;
    // head[i*m + j]: completion of seq[0..i) on machine j; tail[i*m + j]: time from the start of
    // seq[i] on machine j to the end of seq[i..k).
    for (int j = 0; j < m; ++j) head_[j] = 0, tail_[static_cast<std::size_t>(k) * m + j] = 0;
    for (int i = 1; i <= k; ++i) {
      const int* p = &instance_.times[static_cast<std::size_t>(seq[i - 1]) * m];
      long long* row = &head_[static_cast<std::size_t>(i) * m];
      const long long* above = row - m;
      long long left = 0;
      for (int j = 0; j < m; ++j) left = row[j] = std::max(above[j], left) + p[j];
    }
    for (int i = k - 1; i >= 0; --i) {
      const int* p = &instance_.times[static_cast<std::size_t>(seq[i]) * m];
      long long* row = &tail_[static_cast<std::size_t>(i) * m];
      const long long* below = row + m;
      long long right = 0;
      for (int j = m - 1; j >= 0; --j) right = row[j] = std::max(below[j], right) + p[j];
    }
    const int* p = &instance_.times[static_cast<std::size_t>(job) * m];
    Insertion out{0, -1};
    for (int i = 0; i <= k; ++i) {
      const long long* h = &head_[static_cast<std::size_t>(i) * m];
      const long long* t = &tail_[static_cast<std::size_t>(i) * m];
      long long finish = 0, cmax = 0;
      for (int j = 0; j < m; ++j) {
        finish = std::max(finish, h[j]) + p[j];
        cmax = std::max(cmax, finish + t[j]);
      }
      if (out.makespan < 0 || cmax < out.makespan) out = {i, cmax};
    }
    cells_ += static_cast<long long>(k + 1) * m;
    return out;
  }

  long long cells() const { return cells_; }

 private:
  const PfspInstance& instance_;
  int m_;
  std::vector<long long> head_, tail_;
  long long cells_ = 0;
};

class IteratedGreedy {
 public:
  IteratedGreedy(const PfspInstance& instance, const PfspIteratedGreedyOptions& options)
      : instance_(instance),
        options_(options),
        eval_(instance),
        rng_(options.seed),
        lower_bound_(problems::pfsp::lower_bound(instance)),
        start_(std::chrono::steady_clock::now()) {
    const double per_nm = options.cells_per_nm > 0 ? options.cells_per_nm : kPfspReferenceCellsPerNm;
    budget_ = static_cast<long long>(per_nm * instance.jobs * instance.machines);
  }

  PfspIteratedGreedyResult run() {
    const int n = instance_.jobs;
    PfspIteratedGreedyResult out;
    if (n == 0 || instance_.machines == 0) {
      for (int j = 0; j < n; ++j) out.order.push_back(j);
      out.reached_lower_bound = true;
      return out;
    }
    std::vector<int> order = neh();
    long long cmax = problems::pfsp::makespan(instance_, order);
    local_search(order, cmax);
    std::vector<int> best = order;
    long long best_cmax = cmax;

    long long total = 0;
    for (int t : instance_.times) total += t;
    const double temperature = options_.temperature * static_cast<double>(total) / (10.0 * n * instance_.machines);
    const int d = std::min(options_.destruction, n);
    std::vector<int> candidate, removed;
    while (best_cmax > lower_bound_ && !stop()) {
      candidate = order;
      removed.clear();
      for (int r = 0; r < d; ++r) {
        const int at = rng_.uniform_int(0, static_cast<int>(candidate.size()) - 1);
        removed.push_back(candidate[at]);
        candidate.erase(candidate.begin() + at);
      }
      long long c = 0;
      for (int job : removed) {
        const Insertion at = eval_.best(candidate, job);
        candidate.insert(candidate.begin() + at.position, job);
        c = at.makespan;
      }
      local_search(candidate, c);
      ++out.iterations;
      if (c < cmax || rng_.uniform() < std::exp(-static_cast<double>(c - cmax) / temperature)) {
        order.swap(candidate);
        cmax = c;
        if (cmax < best_cmax) best = order, best_cmax = cmax;
      }
    }
    out.order = std::move(best);
    out.makespan = best_cmax;
    out.cells = eval_.cells();
    out.reached_lower_bound = best_cmax <= lower_bound_;
    out.time_capped = time_capped_;
    return out;
  }

 private:
  // The same NEH as pfsp_heuristics, on the allocation-free evaluator.
  std::vector<int> neh() {
    const int n = instance_.jobs, m = instance_.machines;
    std::vector<long long> total(n, 0);
    std::vector<int> jobs(n);
    for (int j = 0; j < n; ++j) {
      jobs[j] = j;
      for (int k = 0; k < m; ++k) total[j] += instance_.p(j, k);
    }
    std::stable_sort(jobs.begin(), jobs.end(), [&](int a, int b) { return total[a] > total[b]; });
    std::vector<int> order;
    order.reserve(n);
    for (int job : jobs) order.insert(order.begin() + eval_.best(order, job).position, job);
    return order;
  }

  // Ruiz & Stützle's iterative improvement by insertion: take the jobs in a random order,
  // move each to its best position, until a whole pass improves nothing. The job's current
  // position is among the candidates, so a move never worsens; moves on ties walk plateaus.
  void local_search(std::vector<int>& order, long long& cmax) {
    const int n = static_cast<int>(order.size());
    std::vector<int> jobs = order;
    bool improved = true;
    while (improved) {
      improved = false;
      rng_.shuffle(jobs);
      for (int job : jobs) {
        if (stop()) return;
        const int at = static_cast<int>(std::find(order.begin(), order.end(), job) - order.begin());
        order.erase(order.begin() + at);
        const Insertion best = eval_.best(order, job);
        order.insert(order.begin() + best.position, job);
        if (best.makespan < cmax) cmax = best.makespan, improved = true;
      }
      if (n < 2) return;
    }
  }

  bool stop() {
    if (eval_.cells() >= budget_ || time_capped_) return true;
    if (options_.time_limit_s > 0 && ++clock_checks_ % 32 == 0) {
      const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start_;
      time_capped_ = spent.count() >= options_.time_limit_s;
    }
    return time_capped_;
  }

  const PfspInstance& instance_;
  const PfspIteratedGreedyOptions& options_;
  InsertionEvaluator eval_;
  Rng rng_;
  long long lower_bound_;
  long long budget_ = 0;
  std::chrono::steady_clock::time_point start_;
  long long clock_checks_ = 0;
  bool time_capped_ = false;
};

}  // namespace

PfspIteratedGreedyResult pfsp_iterated_greedy(const PfspInstance& instance, const PfspIteratedGreedyOptions& options) {
  return IteratedGreedy(instance, options).run();
}

problems::Solution pfsp_reference(const problems::Instance& instance, const SolveOptions& options) {
  PfspIteratedGreedyOptions ig;
  ig.seed = options.seed;
  ig.time_limit_s = options.time_limit_s;
  return problems::Solution::flat(
      pfsp_iterated_greedy(problems::instance_as<PfspInstance>(instance, "pfsp"), ig).order);
}

}  // namespace falcon::solvers
