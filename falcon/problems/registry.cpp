#include "falcon/problems/registry.h"

#include "falcon/core/error.h"
#include "falcon/problems/tsp.h"
// REGISTRY-INCLUDE: op
#include "falcon/problems/cvrp.h"
// REGISTRY-INCLUDE: mis_mvc
// REGISTRY-INCLUDE: pfsp
// REGISTRY-INCLUDE: jssp

namespace falcon::problems {
namespace {

const std::vector<const Problem*>& all_problems() {
  static const std::vector<const Problem*> problems = {
      &tsp::problem(),
      // REGISTRY-LINE: op
      &cvrp::problem(),
      // REGISTRY-LINE: mis_mvc
      // REGISTRY-LINE: pfsp
      // REGISTRY-LINE: jssp
  };
  return problems;
}

}  // namespace

const Problem& problem_by_name(std::string_view name) {
  for (const Problem* p : all_problems()) {
    if (p->name() == name) return *p;
  }
  std::string known;
  for (const Problem* p : all_problems()) known += (known.empty() ? "" : ", ") + std::string(p->name());
  throw Error("unknown problem '" + std::string(name) + "'; known problems: " + known);
}

std::vector<std::string_view> problem_names() {
  std::vector<std::string_view> names;
  for (const Problem* p : all_problems()) names.push_back(p->name());
  return names;
}

}  // namespace falcon::problems
