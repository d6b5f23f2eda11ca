// A short deterministic fuzz run inside the ordinary test suite (no clang needed): random bytes,
// and mutations of well-formed texts of every problem, through the fuzzer's own checks.
#include <gtest/gtest.h>

#include <string>

#include "falcon/core/rng.h"
#include "falcon/problems/registry.h"
#include "tests/fuzz/solution_fuzz_target.h"

namespace falcon::fuzz {
namespace {

std::string well_formed_seed(Rng& rng, const problems::Problem& problem) {
  const auto fmt = problem.text_format();
  problems::Solution s;
  const int lists = fmt.nested ? rng.uniform_int(1, 4) : 1;
  for (int l = 0; l < lists; ++l) {
    s.lists.emplace_back();
    const int len = rng.uniform_int(0, 12);
    for (int i = 0; i < len; ++i) s.lists.back().push_back(rng.uniform_int(-1, 40));
  }
  if (!fmt.echo) return problems::format_solution(fmt, s, rng.uniform(0, 1000));
  problems::EchoNotes notes;  // random IDs and numbers: a model's notes need not be right
  for (const auto& list : s.lists) {
    notes.emplace_back();
    for (std::size_t i = 0; i < list.size(); ++i)
      notes.back().push_back(rng.bernoulli(0.5) ? std::to_string(rng.uniform_int(0, 99))
                                                : "#" + std::to_string(rng.uniform_int(0, 40)) + "#" + std::to_string(rng.uniform_int(0, 40)));
  }
  return problems::format_solution(fmt, s, rng.uniform(0, 1000), &notes);
}

void mutate(Rng& rng, std::string& text) {
  static const char kAlphabet[] = "0123456789[], .:-ObjectiveRouteSsOrdchul#()\n\x00\xff";
  const int edits = rng.uniform_int(0, 6);
  for (int e = 0; e < edits; ++e) {
    const int at = text.empty() ? 0 : rng.uniform_int(0, static_cast<int>(text.size()) - 1);
    switch (rng.uniform_int(0, 3)) {
      case 0: if (!text.empty()) text.erase(at, rng.uniform_int(1, 5)); break;
      case 1: text.insert(text.begin() + at, kAlphabet[rng.uniform_int(0, sizeof kAlphabet - 2)]); break;
      case 2: if (!text.empty()) text[at] = static_cast<char>(rng.uniform_int(0, 255)); break;
      default: text.resize(at); break;  // truncation
    }
  }
}

TEST(SolutionFuzzReplay, TwentyThousandDeterministicInputs) {
  Rng rng(12345);
  const auto names = problems::problem_names();
  for (int i = 0; i < 20000; ++i) {
    std::string bytes(2, '\0');
    const auto selector = static_cast<std::uint8_t>(i % (3 * names.size()));  // every problem in every style
    bytes[0] = static_cast<char>(selector);
    bytes[1] = static_cast<char>(rng.uniform_int(0, 255));
    if (i % 4 == 0) {
      const int len = rng.uniform_int(0, 200);
      for (int k = 0; k < len; ++k) bytes.push_back(static_cast<char>(rng.uniform_int(0, 255)));
    } else {
      std::string text = well_formed_seed(rng, solution_fuzz_problem(selector));
      mutate(rng, text);
      bytes += text;
    }
    solution_text_one_input(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  SUCCEED() << "20000 inputs over " << names.size() << " problems, each in the paper's text, the compact one and (MIS, MVC, CVRP) with notes";
}

}  // namespace
}  // namespace falcon::fuzz
