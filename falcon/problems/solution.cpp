#include "falcon/problems/solution.h"

namespace falcon::problems {

const std::vector<int>& Solution::items() const {
  static const std::vector<int> kEmpty;
  return lists.empty() ? kEmpty : lists.front();
}

}  // namespace falcon::problems
