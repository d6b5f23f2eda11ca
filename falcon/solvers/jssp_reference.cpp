#include "falcon/solvers/jssp_reference.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <utility>
#include <vector>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"
#include "falcon/solvers/jssp_critical_path.h"
#include "falcon/solvers/jssp_heuristics.h"

namespace falcon::solvers {
namespace {

using problems::Solution;
using problems::jssp::JsspInstance;

struct Move {
  int u, v;  // v directly follows u on their machine; the move puts v first
};

struct TabuEntry {
  int first, second;  // swapping `first` (directly before `second`) back is forbidden
  long long until;    // ... up to this iteration
};

class TabuSearch {
 public:
  TabuSearch(const JsspInstance& instance, const JsspTabuOptions& options)
      : instance_(instance),
        options_(options),
        graph_(instance),
        rng_(options.seed),
        lower_bound_(problems::jssp::lower_bound(instance)),
        budget_(static_cast<long long>(options.iterations_per_op * instance.jobs * instance.machines)),
        start_(std::chrono::steady_clock::now()) {}

  JsspTabuResult run() {
    if (!graph_.set_solution(jssp_dispatch(instance_, DispatchRule::kMwkr))) {
      throw Error("jssp tabu search: the dispatching rule gave a cyclic solution");
    }
    best_ = graph_.solution();
    best_makespan_ = run_best_makespan_ = graph_.makespan();
    run_best_ = best_;
    long long stall = 0;
    while (best_makespan_ > lower_bound_ && !stop()) {
      ++result_.iterations;
      // No N5 move: the critical path is one machine's block or one job's route, so the
      // makespan is at most the lower bound (unreachable here, kept as a guard).
      if (!step()) break;
      const std::int64_t c = graph_.makespan();
      if (c < run_best_makespan_) run_best_makespan_ = c, run_best_ = graph_.solution();
      if (c < best_makespan_) {
        best_makespan_ = c;
        best_ = run_best_;
        stall = 0;
      } else if (++stall >= options_.stall_iterations) {
        restart();
        stall = 0;
      }
    }
    result_.solution = best_;
    result_.makespan = best_makespan_;
    result_.reached_lower_bound = best_makespan_ <= lower_bound_;
    result_.time_capped = time_capped_;
    return result_;
  }

 private:
  // N5 of Nowicki & Smutnicki on one critical path.
  const std::vector<Move>& n5_moves() {
    graph_.critical_path(path_);
    moves_.clear();
    const int count = path_.blocks();
    for (int b = 0; b < count; ++b) {
      const int* block = &path_.ops[path_.block_begin[b]];
      const int size = path_.block_size(b);
      if (size < 2) continue;
      if (b > 0) moves_.push_back({block[0], block[1]});
      if (b + 1 < count && (b == 0 || size > 2)) moves_.push_back({block[size - 2], block[size - 1]});
    }
    return moves_;
  }

  bool is_tabu(const Move& move) const {
    for (const TabuEntry& t : tabu_) {
      if (t.first == move.u && t.second == move.v && t.until >= result_.iterations) return true;
    }
    return false;
  }

  // One tabu move: the best by estimate that is allowed (ties broken at random); when all
  // are tabu, the one whose tabu status ends first.
  bool step() {
    const std::vector<Move>& moves = n5_moves();
    if (moves.empty()) return false;
    int chosen = -1, ties = 0;
    std::int64_t chosen_estimate = std::numeric_limits<std::int64_t>::max();
    for (int i = 0; i < static_cast<int>(moves.size()); ++i) {
      const std::int64_t estimate = graph_.swap_estimate(moves[i].u, moves[i].v);
      if (is_tabu(moves[i]) && estimate >= best_makespan_) continue;
      if (estimate < chosen_estimate) {
        chosen = i, chosen_estimate = estimate, ties = 1;
      } else if (estimate == chosen_estimate && rng_.uniform_int(0, ties++) == 0) {
        chosen = i;
      }
    }
    if (chosen < 0) {
      long long soonest = std::numeric_limits<long long>::max();
      for (int i = 0; i < static_cast<int>(moves.size()); ++i) {
        for (const TabuEntry& t : tabu_) {
          if (t.first == moves[i].u && t.second == moves[i].v && t.until < soonest) soonest = t.until, chosen = i;
        }
      }
    }
    const Move move = moves[chosen];
    graph_.swap(move.u, move.v);
    const int tenure = rng_.uniform_int(options_.tenure_min, options_.tenure_max) + instance_.jobs / instance_.machines;
    tabu_.erase(std::remove_if(tabu_.begin(), tabu_.end(), [&](const TabuEntry& t) { return t.until < result_.iterations; }),
                tabu_.end());
    tabu_.push_back({move.v, move.u, result_.iterations + tenure});
    return true;
  }

  // The best of the run just ended joins the elite; a random elite solution, kicked by a few
  // random swaps of adjacent critical operations (each keeps the graph acyclic), starts the next.
  void restart() {
    ++result_.restarts;
    add_elite(run_best_makespan_, run_best_);
    const auto& [makespan, solution] = elite_[rng_.uniform_int(0, static_cast<int>(elite_.size()) - 1)];
    graph_.set_solution(solution);
    for (int k = 0; k < options_.kick_swaps; ++k) {
      graph_.critical_path(path_);
      std::vector<Move> pairs;
      for (int b = 0; b < path_.blocks(); ++b) {
        for (int i = path_.block_begin[b]; i + 1 < path_.block_begin[b + 1]; ++i) {
          pairs.push_back({path_.ops[i], path_.ops[i + 1]});
        }
      }
      if (pairs.empty()) break;
      const Move move = pairs[rng_.uniform_int(0, static_cast<int>(pairs.size()) - 1)];
      graph_.swap(move.u, move.v);
    }
    tabu_.clear();
    run_best_makespan_ = graph_.makespan();
    run_best_ = graph_.solution();
    if (run_best_makespan_ < best_makespan_) best_makespan_ = run_best_makespan_, best_ = run_best_;
  }

  void add_elite(std::int64_t makespan, const Solution& solution) {
    for (const auto& e : elite_) {
      if (e.second == solution) return;
    }
    if (static_cast<int>(elite_.size()) < options_.elite_size) {
      elite_.emplace_back(makespan, solution);
    } else {
      auto worst = std::max_element(elite_.begin(), elite_.end(),
                                    [](const auto& a, const auto& b) { return a.first < b.first; });
      if (makespan <= worst->first) *worst = {makespan, solution};
    }
  }

  bool stop() {
    if (result_.iterations >= budget_ || time_capped_) return true;
    if (options_.time_limit_s > 0 && result_.iterations % 64 == 0) {
      const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start_;
      time_capped_ = spent.count() >= options_.time_limit_s;
    }
    return time_capped_;
  }

  const JsspInstance& instance_;
  const JsspTabuOptions& options_;
  JobShopGraph graph_;
  Rng rng_;
  std::int64_t lower_bound_;
  long long budget_;
  std::chrono::steady_clock::time_point start_;
  bool time_capped_ = false;
  JsspTabuResult result_;
  Solution best_, run_best_;
  std::int64_t best_makespan_ = 0, run_best_makespan_ = 0;
  std::vector<TabuEntry> tabu_;
  JobShopGraph::CriticalPath path_;  // buffers reused every iteration
  std::vector<Move> moves_;
  std::vector<std::pair<std::int64_t, Solution>> elite_;
};

}  // namespace

JsspTabuResult jssp_tabu_search(const JsspInstance& instance, const JsspTabuOptions& options) {
  if (instance.jobs == 0 || instance.machines == 0) {
    JsspTabuResult out;
    out.solution.lists.assign(instance.machines, {});
    out.reached_lower_bound = true;
    return out;
  }
  return TabuSearch(instance, options).run();
}

problems::Solution jssp_reference(const problems::Instance& instance, const SolveOptions& options) {
  JsspTabuOptions tabu;
  tabu.seed = options.seed;
  tabu.time_limit_s = options.time_limit_s;
  return jssp_tabu_search(problems::instance_as<JsspInstance>(instance, "jssp"), tabu).solution;
}

}  // namespace falcon::solvers
