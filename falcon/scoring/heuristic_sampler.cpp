#include "falcon/scoring/heuristic_sampler.h"

#include <algorithm>
#include <cctype>
#include <chrono>

#include "falcon/core/error.h"
#include "falcon/core/rng.h"
#include "falcon/scoring/instance_draws.h"
#include "falcon/scoring/note_walk.h"
#include "falcon/solvers/jssp_heuristics.h"

namespace falcon::scoring {
namespace {

using Clock = std::chrono::steady_clock;

// A tour written node by node from the prompt's candidate lists.
problems::Solution sample_tour(const std::vector<std::vector<int>>& lists, double q, Rng& rng) {
  const int n = static_cast<int>(lists.size());
  std::vector<char> visited(n, 0);
  std::vector<int> tour;
  int current = -1;
  for (int step = 0; step < n; ++step) {
    std::vector<int> candidates;
    if (current >= 0)
      for (int v : lists[current])
        if (!visited[v]) candidates.push_back(v);
    if (candidates.empty()) {  // none listed is left: any unvisited node
      std::vector<int> unvisited;
      for (int v = 0; v < n; ++v)
        if (!visited[v]) unvisited.push_back(v);
      current = unvisited[rng.uniform_int(0, static_cast<int>(unvisited.size()) - 1)];
    } else {
      current = candidates[draw_rank(static_cast<int>(candidates.size()), q, rng)];
    }
    visited[current] = 1;
    tour.push_back(current);
  }
  return problems::Solution::flat(tour);
}

enum class SampledText { kCandidateLists, kRankedNotes, kInsertionNotes, kDispatch };

// The text whose choices the sampler makes, or an error naming the problem and the text.
SampledText sampled_text(const std::string& problem, const formats::TextStyle& style) {
  const auto own = style.for_problem(problem);
  if (problem == "tsp" && own.name == "compact" && own.candidates > 0) return SampledText::kCandidateLists;
  if (formats::notes_are_choices(own)) return SampledText::kRankedNotes;
  if (own.name == "compact_insert") return SampledText::kInsertionNotes;
  if (problem == "jssp") return SampledText::kDispatch;
  throw Error("policy: heuristic: the model-free sampler knows TSP's compact text with candidate lists, the "
              "ranked and insertion notes (compact_ranked, compact_insert) and JSSP's machine sequences, not " +
              problem + " in '" + formats::describe(own) + "'; leave this row out for this model");
}

}  // namespace

void check_heuristic_sampler(const std::string& problem, const formats::TextStyle& style) {
  sampled_text(problem, style);
}

std::vector<std::vector<int>> prompt_candidate_lists(const std::string& prompt, int n) {
  std::vector<std::vector<int>> lists(n);
  std::size_t at = 0;
  auto read_id = [&](std::size_t& pos) {  // "#k" at pos -> k, pos past it; -1 when not an ID
    if (pos >= prompt.size() || prompt[pos] != '#') return -1;
    long long k = 0;
    std::size_t digits = 0;
    auto digit_at = [&](std::size_t i) { return i < prompt.size() && std::isdigit(static_cast<unsigned char>(prompt[i])); };
    for (++pos; digit_at(pos) && digits < 9; ++pos, ++digits) k = k * 10 + (prompt[pos] - '0');
    return digits == 0 ? -1 : static_cast<int>(k);
  };
  while (at < prompt.size()) {
    const std::size_t end = std::min(prompt.find(';', at), prompt.size());
    std::size_t pos = prompt.find('#', at);
    if (pos < end) {
      const int id = read_id(pos);
      std::size_t colon = prompt.find(':', pos);
      if (id >= 0 && id < n && colon < end) {
        for (pos = colon + 1; pos < end;) {
          const int listed = read_id(pos);
          if (listed < 0) break;
          if (listed < n) lists[id].push_back(listed);
        }
      }
    }
    at = end + 1;
  }
  return lists;
}

InstanceResult run_heuristic_sampler_row(const RowSpec& row, const EvalInstance& e, const formats::TextStyle& style,
                                         std::uint64_t seed) {
  const auto& problem = *e.problem;
  const SampledText text = sampled_text(std::string(problem.name()), style);
  std::vector<std::vector<int>> lists;
  if (text == SampledText::kCandidateLists) lists = prompt_candidate_lists(problem.prompt(*e.instance), e.instance->size());
  auto sample = [&](Rng& rng) {
    if (text == SampledText::kCandidateLists) return sample_tour(lists, row.q, rng);
    if (text == SampledText::kDispatch)
      return solvers::jssp_dispatch(problems::instance_as<problems::jssp::JsspInstance>(*e.instance, "jssp"),
                                    solvers::DispatchRule::kMwkr,
                                    [&](int count) { return draw_rank(count, row.q, rng); });
    const auto walk = text == SampledText::kRankedNotes ? NotedText::kRanked : NotedText::kInsertion;
    return problem.solution_of_text(*e.instance, walk_notes(problem, *e.instance, walk, row.q, rng));
  };
  InstanceDraws d(row.match);
  const auto budget = static_cast<std::uint64_t>(row.budget());
  int drawn = 0;
  while (!d.done) {
    const int k = round_samples(row, drawn);
    for (int j = 0; j < k; ++j) {
      const auto start = Clock::now();
      Rng rng = Rng::for_item(seed, e.key * budget + static_cast<std::uint64_t>(drawn + j));
      const std::string text_written = problem.format(*e.instance, sample(rng));
      const auto outcome = score_sample(problem, *e.instance, text_written, row.repair);
      d.seconds.total += std::chrono::duration<double>(Clock::now() - start).count();
      d.seconds.repair += outcome.repair_seconds;
      d.add(outcome, text_written);
    }
    drawn += k;
    d.settle(row, drawn, problem.sense());
  }
  return deliver(e, row, d);
}

}  // namespace falcon::scoring
