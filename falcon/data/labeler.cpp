#include "falcon/data/labeler.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"

namespace falcon::data {

Label label_instance(const problems::Problem& problem, const solvers::SolverEntry& solver, const problems::Instance& instance,
                     std::uint64_t solver_seed, double time_limit_s) {
  solvers::SolveOptions options;
  options.seed = solver_seed;
  options.time_limit_s = time_limit_s;
  const auto start = std::chrono::steady_clock::now();
  Label label;
  label.solution = solver.solve(instance, options);
  label.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!problem.feasible(instance, label.solution)) {
    throw Error("method '" + std::string(solver.method) + "' returned an infeasible solution for " + instance.name +
                " (violation " + std::to_string(problem.violation(instance, label.solution)) + ")");
  }
  label.objective = problem.objective(instance, label.solution);
  label.solver = std::string(solver.method);
  label.solver_seed = solver_seed;
  return label;
}

int worker_count(int requested, std::size_t tasks) {
  int n = requested > 0 ? requested : static_cast<int>(std::thread::hardware_concurrency());
  n = std::min<long long>(std::max(n, 1), static_cast<long long>(std::max<std::size_t>(tasks, 1)));
  return n;
}

void label_in_parallel(const DatagenSpec& spec, const std::vector<LabelTask>& tasks, int threads,
                       const std::function<void(std::vector<LabelOutcome>&)>& on_batch) {
  const problems::Problem& problem = problems::problem_by_name(spec.problem);
  const solvers::SolverEntry& solver = solvers::solver_by_name(spec.problem, spec.label.method);
  std::mutex mu;
  std::condition_variable cv;
  std::vector<LabelOutcome> ready;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::exception_ptr failure;
  int running = std::max(threads, 1);

  auto worker = [&] {
    while (!stop) {
      const std::size_t i = next++;
      if (i >= tasks.size()) break;
      const LabelTask& task = tasks[i];
      const SplitInfo& split = spec.splits[task.split];
      try {
        const auto instance = generate_item(problem, split, task.plan);
        Label label = label_instance(problem, solver, *instance, task.plan.solver_seed, spec.label.time_limit_s);
        std::lock_guard<std::mutex> lock(mu);
        ready.push_back({task.split, task.plan.index, std::move(label)});
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mu);
        if (!failure) failure = std::make_exception_ptr(Error(split.name + "[" + std::to_string(task.plan.index) + "]: " + e.what()));
        stop = true;
      }
      cv.notify_one();
    }
    std::lock_guard<std::mutex> lock(mu);
    --running;
    cv.notify_one();
  };

  std::vector<std::thread> pool;
  for (int t = 0; t < std::max(threads, 1); ++t) pool.emplace_back(worker);
  std::exception_ptr callback_failure;
  for (;;) {
    std::vector<LabelOutcome> batch;
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return !ready.empty() || running == 0; });
      batch.swap(ready);
      if (batch.empty() && running == 0) break;
    }
    if (callback_failure) continue;  // drain, so the workers can finish
    try {
      on_batch(batch);
    } catch (...) {
      callback_failure = std::current_exception();
      stop = true;
    }
  }
  for (auto& t : pool) t.join();
  if (callback_failure) std::rethrow_exception(callback_failure);
  if (failure) std::rethrow_exception(failure);
}

}  // namespace falcon::data
