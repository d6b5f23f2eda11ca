#include "tests/fuzz/solution_fuzz_target.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string_view>

#include "falcon/problems/registry.h"
#include "falcon/formats/text_style.h"

namespace falcon::fuzz {
namespace {

using problems::Instance;
using problems::Problem;
using problems::Solution;

const Instance& cached_instance(const Problem& problem, int n) {
  static std::map<std::pair<std::string_view, int>, std::shared_ptr<Instance>> cache;
  auto& slot = cache[{problem.name(), n}];
  if (!slot) {
    problems::GenerateOptions options;
    options.n = n;
    slot = problem.generate(options, /*seed=*/static_cast<std::uint64_t>(n));
  }
  return *slot;
}

[[noreturn]] void fail(const Problem& p, const char* what, std::string_view text) {
  std::fprintf(stderr, "fuzz failure (%s): %s\ninput: %.*s\n", std::string(p.name()).c_str(), what,
               static_cast<int>(text.size()), text.data());
  std::abort();
}

void check_repair(const Problem& problem, const Instance& instance, const Solution& input, std::string_view text) {
  const Solution repaired = problem.repair(instance, input);
  if (!problem.feasible(instance, repaired)) fail(problem, "repair output infeasible", text);
  if (problem.repair(instance, repaired) != repaired) fail(problem, "repair not idempotent", text);
  if (problem.feasible(instance, input) && repaired != input) fail(problem, "feasible input changed", text);
  if (problem.violation(instance, repaired) != 0.0) fail(problem, "violation of repaired output is not 0", text);
  const std::string written = problem.format(instance, repaired);
  // GrammarSpec knows no notes: an echoing text is checked by reading it back instead.
  if (!problem.text_format().echo && !problem.grammar(instance).accepts(written))
    fail(problem, "grammar rejects the repaired text", text);
  const auto back = problem.parse(written);
  if (!back.solution || *back.solution != repaired) fail(problem, "the repaired text does not read back", text);
}

}  // namespace

const Problem& solution_fuzz_problem(std::uint8_t selector) {
  static const auto names = problems::problem_names();
  const std::string_view name = names[selector % names.size()];
  const bool writes_notes = name == "mis" || name == "mvc" || name == "cvrp";
  formats::TextStyle style;
  switch ((selector / names.size()) % 3) {
    case 0: break;
    case 1: style = {"compact", 0}; break;
    default: style = {writes_notes ? "compact_echo" : "compact", 0}; break;
  }
  return formats::with_text_style(problems::problem_by_name(name), style);
}

int solution_text_one_input(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // data[0]: the problem and its text style: format, both parsers and the grammar must agree in each.
  const Problem& problem = solution_fuzz_problem(data[0]);
  const int n = 5 + data[1] % 28;
  const Instance& instance = cached_instance(problem, n);
  const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);

  const auto strict = problem.parse(text);
  const auto lenient = problem.parse(text, /*lenient=*/true);
  if (strict.solution) {
    if (!lenient.solution || *lenient.solution != *strict.solution) fail(problem, "lenient parse disagrees with strict", text);
    check_repair(problem, instance, *strict.solution, text);
  }
  if (lenient.solution) check_repair(problem, instance, *lenient.solution, text);
  return 0;
}

}  // namespace falcon::fuzz
