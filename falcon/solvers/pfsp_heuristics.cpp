#include "falcon/solvers/pfsp_heuristics.h"

#include <algorithm>

namespace falcon::solvers {

std::vector<int> neh_order(const problems::pfsp::PfspInstance& instance) {
  std::vector<int> order;
  order.reserve(instance.jobs);
  for (int job : problems::pfsp::neh_job_order(instance)) {
    const problems::pfsp::Insertion at = problems::pfsp::best_insertion(instance, order, job);
    order.insert(order.begin() + at.position, job);
  }
  return order;
}

problems::Solution pfsp_neh(const problems::Instance& instance, const SolveOptions&) {
  return problems::Solution::flat(neh_order(problems::instance_as<problems::pfsp::PfspInstance>(instance, "pfsp")));
}

}  // namespace falcon::solvers
