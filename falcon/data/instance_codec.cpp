#include "falcon/data/instance_codec.h"

#include "falcon/core/error.h"

namespace falcon::data {

std::shared_ptr<problems::Instance> decode_instance(const problems::Problem& problem, const InstanceData& data, int n,
                                                    const std::string& name, const std::string& where) {
  if (n < 1) throw Error(where + ": size n = " + std::to_string(n) + " is not positive");
  return problem.decode_instance(data, n, name, where);
}

}  // namespace falcon::data
