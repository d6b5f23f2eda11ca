#include "falcon/solvers/pfsp_heuristics.h"

#include <algorithm>

namespace falcon::solvers {

std::vector<int> neh_order(const problems::pfsp::PfspInstance& instance) {
  std::vector<long long> total(instance.jobs, 0);
  for (int j = 0; j < instance.jobs; ++j) {
    for (int k = 0; k < instance.machines; ++k) total[j] += instance.p(j, k);
  }
  std::vector<int> jobs(instance.jobs);
  for (int j = 0; j < instance.jobs; ++j) jobs[j] = j;
  std::stable_sort(jobs.begin(), jobs.end(), [&](int a, int b) { return total[a] > total[b]; });
  std::vector<int> order;
  order.reserve(jobs.size());
  for (int job : jobs) {
    const problems::pfsp::Insertion at = problems::pfsp::best_insertion(instance, order, job);
    order.insert(order.begin() + at.position, job);
  }
  return order;
}

problems::Solution pfsp_neh(const problems::Instance& instance, const SolveOptions&) {
  return problems::Solution::flat(neh_order(problems::instance_as<problems::pfsp::PfspInstance>(instance, "pfsp")));
}

}  // namespace falcon::solvers
