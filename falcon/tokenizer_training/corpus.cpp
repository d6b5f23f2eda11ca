#include "falcon/tokenizer_training/corpus.h"

#include "falcon/core/error.h"
#include "falcon/problems/registry.h"
#include "falcon/formats/text_style.h"
#include "falcon/solvers/solver.h"
#include "falcon/text/tokenizer.h"

namespace falcon::text {

std::vector<CorpusText> generate_corpus(const CorpusOptions& options) {
  std::vector<std::string> names = options.problems;
  if (names.empty())
    for (auto name : problems::problem_names()) names.emplace_back(name);
  std::vector<CorpusText> out;
  for (const auto& name : names) {
    const problems::Problem& problem = formats::with_text_style(problems::problem_by_name(name), options.style);
    const solvers::SolverEntry* heuristic = nullptr;
    for (const auto* entry : solvers::solvers_for(name))
      if (entry->method != "reference") {
        heuristic = entry;
        break;
      }
    if (heuristic == nullptr) throw Error("tokenizer corpus: no heuristic for " + name);
    problems::GenerateOptions gen;
    gen.n = options.n > 0 ? options.n : (name == "mis" ? 50 : 20);
    for (int k = 0; k < options.instances_per_problem; ++k) {
      auto instance = problem.generate(gen, options.seed + static_cast<std::uint64_t>(k));
      solvers::SolveOptions solve;
      solve.seed = options.seed + static_cast<std::uint64_t>(k);
      auto solution = heuristic->solve(*instance, solve);
      out.push_back({name, problem.prompt(*instance), problem.format(*instance, solution)});
    }
  }
  return out;
}

std::vector<std::string> corpus_texts(const std::vector<CorpusText>& corpus) {
  std::vector<std::string> texts;
  texts.reserve(corpus.size() * 2);
  for (const auto& c : corpus) {
    texts.push_back(c.prompt + std::string(kPromptEnd));
    texts.push_back(c.solution);
  }
  return texts;
}

}  // namespace falcon::text
