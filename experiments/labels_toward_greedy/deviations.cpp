// Where a ranked-text MIS model leaves min-degree greedy, and whether it should have: each answer
// of a falcon_eval row (greedy decoding, computed notes) is walked pick by pick while its picks
// so far still extend to a maximum independent set (exact checks by branch and bound), and each
// pick is classed by whether the note's first vertex, and the model's pick, still extend to one.
// Usage: deviations DATASET EVAL_DIR [ROW]   (ROW default "model alone")
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "falcon/data/reader.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/solvers/mis_branch_and_bound.h"
#include "falcon/solvers/mis_reductions.h"

namespace mis_mvc = falcon::problems::mis_mvc;
using falcon::problems::Graph;

// The picks of a ranked text, "Set: [#47 (#11#14...), #11 (...), ...]": the IDs outside notes.
std::vector<int> picks(const std::string& text) {
  std::vector<int> out;
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    else if (text[i] == ')') --depth;
    else if (text[i] == '#' && depth == 0) {
      int id = 0;
      std::size_t j = i + 1;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) id = id * 10 + (text[j++] - '0');
      out.push_back(id);
    }
  }
  return out;
}

// alpha of g less the taken vertices, v and their neighbours, plus what is taken: the largest set
// holding them all.
int best_with(const Graph& g, std::vector<char> free, int taken, int v) {
  free[v] = 0;
  for (int w : g.neighbors(v)) free[w] = 0;
  std::vector<int> rest;
  for (int w = 0; w < g.n; ++w)
    if (free[w]) rest.push_back(w);
  if (rest.empty()) return taken + 1;
  const auto r = falcon::solvers::mis_branch_and_bound(falcon::solvers::induced_subgraph(g, rest), {});
  return taken + 1 + static_cast<int>(r.set.size());
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: deviations DATASET EVAL_DIR [ROW]\n");
    return 2;
  }
  const std::string row = argc > 3 ? argv[3] : "model alone";
  const auto reader = falcon::data::DatasetReader::open(argv[1], "mis");
  const auto& indices = reader.indices("test");
  long first_pick_left = 0, first_pick_lost = 0;  // the answer's first pick, which no note precedes
  long follow_right = 0, follow_wrong = 0, leave_needless_kept = 0, leave_needless_lost = 0, leave_needed_kept = 0,
       leave_needed_lost = 0, answers = 0, optimal = 0;
  std::ifstream in(std::string(argv[2]) + "/instances.jsonl");
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line);
    if (j["row"] != row) continue;
    const long key = j["key"];
    std::size_t position = 0;
    while (position < indices.size() && indices[position] != key) ++position;
    const auto loaded = reader.load("test", static_cast<std::int64_t>(position));
    const Graph& g = static_cast<const falcon::problems::GraphInstance&>(*loaded.instance).graph;
    const int alpha = static_cast<int>(loaded.record.label.objective);
    ++answers;
    const auto state = mis_mvc::min_degree_free(g);
    std::vector<char> free(static_cast<std::size_t>(g.n), 1);
    int taken = 0;
    bool still_optimal = true;
    for (int pick : picks(j["text"].get<std::string>())) {
      const std::vector<int> note = mis_mvc::ranked_note(g, *state);
      if (note.empty() || pick < 0 || pick >= g.n || !free[pick]) break;
      const bool first_keeps = best_with(g, free, taken, note[0]) == alpha;
      const bool pick_keeps = pick == note[0] ? first_keeps : best_with(g, free, taken, pick) == alpha;
      if (taken == 0 && pick != note[0]) first_pick_left++, first_pick_lost += !pick_keeps;
      if (pick == note[0]) (first_keeps ? follow_right : follow_wrong)++;
      else if (first_keeps) (pick_keeps ? leave_needless_kept : leave_needless_lost)++;
      else (pick_keeps ? leave_needed_kept : leave_needed_lost)++;
      state->take(pick);
      free[pick] = 0;
      for (int w : g.neighbors(pick)) free[w] = 0;
      ++taken;
      if (!pick_keeps) {
        still_optimal = false;
        break;  // from here on no pick can reach the optimum: stop counting
      }
    }
    optimal += still_optimal && taken == alpha;
  }
  std::printf("| %s | answers | optimal | first taken, an optimum holds it | first taken, none does | left the first needlessly: optimum kept | needlessly: lost | left it where none holds it: kept | lost | of the left, first picks: all | lost |\n", argv[2]);
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::printf("| %s | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld |\n", row.c_str(), answers, optimal, follow_right,
              follow_wrong, leave_needless_kept, leave_needless_lost, leave_needed_kept, leave_needed_lost, first_pick_left,
              first_pick_lost);
  return 0;
}
