// How often a label's next vertex is the ranked note's first (the greedy's pick), for the
// reference solver's optimum and for the optimum re-chosen toward the greedy
// (solvers/optimum_toward_greedy.h), on the training distribution of configs/data/{mis,mvc}50.yaml;
// and how often that first vertex is tied with others on the greedy's count, and a label that
// leaves it takes one of them (what the compact_ranked_keyed notes show).
// Usage: label_ranks PROBLEM COUNT   (PROBLEM: mis | mvc)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "falcon/problems/mis_mvc.h"
#include "falcon/solvers/solver.h"

namespace mis_mvc = falcon::problems::mis_mvc;
using falcon::problems::Solution;

struct Tally {
  long steps = 0, first = 0, rank_sum = 0, all_first = 0, tied_first = 0, leaves_in_tie = 0;
  double seconds = 0;
};

// The rank in its note of each vertex of `label` written in the ranked order.
void count(const falcon::problems::GraphInstance& instance, const Solution& label, bool mis, Tally& t) {
  const auto& g = instance.graph;
  const Solution order = mis ? mis_mvc::mis_ranked_order(instance, label) : mis_mvc::mvc_ranked_order(instance, label);
  const auto state = mis ? mis_mvc::min_degree_free(g) : mis_mvc::max_degree_uncovered(g);
  bool all_first = true;
  for (int v : order.items()) {
    const std::vector<int> note = mis_mvc::ranked_note(g, *state);
    if (note.empty()) break;
    int rank = 0;
    while (rank < static_cast<int>(note.size()) && note[rank] != v) ++rank;
    const int first_key = *state->key(note[0]);
    const bool tied = note.size() > 1 && *state->key(note[1]) == first_key;
    ++t.steps;
    t.first += rank == 0;
    t.tied_first += tied;
    if (rank != 0 && state->key(v) == first_key) ++t.leaves_in_tie;
    t.rank_sum += rank;
    all_first &= rank == 0;
    state->take(v);
  }
  t.all_first += all_first;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: label_ranks mis|mvc COUNT\n");
    return 2;
  }
  const std::string problem = argv[1];
  const int count_n = std::atoi(argv[2]);
  const bool mis = problem == "mis";
  const auto& reference = falcon::solvers::solver_by_name(problem, "reference");
  const auto& toward = falcon::solvers::solver_by_name(problem, "reference_toward_greedy");
  Tally a, b;
  for (int i = 0; i < count_n; ++i) {
    const auto instance = mis_mvc::generate({.n = 50, .params = {{"p", "0.15"}}}, 1000 + i, problem);
    auto t0 = std::chrono::steady_clock::now();
    const Solution ref = reference.solve(*instance, {});
    auto t1 = std::chrono::steady_clock::now();
    const Solution tg = toward.solve(*instance, {});
    auto t2 = std::chrono::steady_clock::now();
    a.seconds += std::chrono::duration<double>(t1 - t0).count();
    b.seconds += std::chrono::duration<double>(t2 - t1).count();
    if (ref.items().size() != tg.items().size()) {
      std::fprintf(stderr, "instance %d: sizes differ (%zu vs %zu)\n", i, ref.items().size(), tg.items().size());
      return 1;
    }
    count(*instance, ref, mis, a);
    count(*instance, tg, mis, b);
  }
  std::printf("| %s, %d ER-50 graphs | label steps on the note's first vertex | mean rank | labels that are the greedy's | steps whose first is tied | leaves of the first to a tied vertex | seconds per label |\n",
              problem.c_str(), count_n);
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& [name, t] : {std::pair<const char*, Tally>{"reference", a}, {"reference_toward_greedy", b}})
    std::printf("| %s | %.1f%% | %.2f | %.1f%% | %.1f%% | %.1f%% | %.4f |\n", name, 100.0 * t.first / t.steps,
                double(t.rank_sum) / t.steps, 100.0 * t.all_first / count_n, 100.0 * t.tied_first / t.steps,
                100.0 * t.leaves_in_tie / (t.steps - t.first), t.seconds / count_n);
  return 0;
}
