#include "falcon/problems/registry.h"

#include "falcon/core/error.h"
#include "falcon/problems/cvrp.h"
#include "falcon/problems/jssp.h"
#include "falcon/problems/mis_mvc.h"
#include "falcon/problems/op.h"
#include "falcon/problems/pfsp.h"
#include "falcon/problems/tsp.h"

namespace falcon::problems {
namespace {

const std::vector<const Problem*>& all_problems() {
  static const std::vector<const Problem*> problems = {  // the paper's order
      &tsp::problem(),  &op::problem(),   &cvrp::problem(), &mis::problem(),
      &mvc::problem(),  &pfsp::problem(), &jssp::problem(),
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
